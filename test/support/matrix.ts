import type { CorrectVariant, Fault } from './fault.js';
import { loadFolder, mapBounded, runAgainst } from './targets.js';

/** One target's outcome in the matrix. */
export type TargetOutcome = Awaited<ReturnType<typeof runAgainst>>;

/** The suite run against the reference server, every fault and every correct variant. */
export interface Matrix {
  faults: Map<string, Fault>;
  variants: Map<string, CorrectVariant>;
  reference: TargetOutcome;
  faultOutcomes: Map<string, TargetOutcome>;
  variantOutcomes: Map<string, TargetOutcome>;
  /** Wall time of the whole matrix, in ms. */
  wallMs: number;
}

/** Targets run at once: enough to keep 2 cores busy while some wait on the network. */
const PARALLEL_TARGETS = 4;

/** The catalogue: every fault (test/faults) and correct variant (test/variants), by name. */
export async function loadCatalogue(): Promise<Pick<Matrix, 'faults' | 'variants'>> {
  return { faults: await loadFolder<Fault>('faults'), variants: await loadFolder<CorrectVariant>('variants') };
}

/**
 * Runs the whole suite against the reference server and every fault and correct variant
 * of the catalogue, a few targets at a time in this process.
 */
export async function runMatrix({ faults, variants }: Pick<Matrix, 'faults' | 'variants'>): Promise<Matrix> {
  const started = performance.now();
  const faultOutcomes = new Map<string, TargetOutcome>();
  const variantOutcomes = new Map<string, TargetOutcome>();
  let reference: TargetOutcome | undefined;
  const jobs: Array<() => Promise<void>> = [
    async () => void (reference = await runAgainst()),
    ...[...faults].map(([name, fault]) => async () => void faultOutcomes.set(name, await runAgainst({ variations: [fault.variation], server: fault.server }))),
    ...[...variants].map(([name, variant]) => async () =>
      void variantOutcomes.set(name, await runAgainst({ variations: [variant.variation], firstId: variant.firstId, server: variant.server }, variant.options)),
    ),
  ];
  await mapBounded(jobs, PARALLEL_TARGETS, (job) => job());
  return { faults, variants, reference: reference!, faultOutcomes, variantOutcomes, wallMs: performance.now() - started };
}
