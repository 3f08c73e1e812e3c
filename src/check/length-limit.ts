import type { Exchange } from '../core/exchange.js';

/**
 * The shortest limit that is a limit and not a refusal of everyday values: a server that
 * refuses names of fewer characters than this breaks 4.2/R1 (section 8 allows limits,
 * not refusing an everyday name).
 */
export const EVERYDAY_LENGTH = 64;

/** The string fields of NewCategory (section 2). */
export const FIELDS = ['name', 'description'] as const;
export type Field = (typeof FIELDS)[number];

/** The values of one create, by field. */
export type FieldValues = Partial<Record<Field, string>>;

/** How a storage layer counts a length: code points (MySQL utf8mb4), UTF-16 units (Java, SQL Server), or UTF-8 bytes. */
export type Measure = 'characters' | 'UTF-16 code units' | 'UTF-8 bytes';

const MEASURES: ReadonlyArray<[Measure, (text: string) => number]> = [
  ['characters', (text) => codePoints(text)],
  ['UTF-16 code units', (text) => text.length],
  ['UTF-8 bytes', (text) => Buffer.byteLength(text)],
];

/** One valid create and how the target answered it. */
export interface LengthObservation {
  fields: FieldValues;
  accepted: boolean;
  exchange: Exchange;
}

/** Code points in `text` (a surrogate pair is one character). */
export function codePoints(text: string): number {
  let count = 0;
  for (let i = 0; i < text.length; i++) {
    const unit = text.charCodeAt(i);
    if (unit >= 0xd800 && unit <= 0xdbff && i + 1 < text.length) {
      const next = text.charCodeAt(i + 1);
      if (next >= 0xdc00 && next <= 0xdfff) i++;
    }
    count++;
  }
  return count;
}

/**
 * Whether a refusal of these values could come from a length limit of at least
 * {@link EVERYDAY_LENGTH} in some measure: UTF-8 bytes are the largest measure, so a
 * value no longer than that in bytes exceeds no such limit.
 */
export function mayExceedLimit(fields: FieldValues): boolean {
  return FIELDS.some((field) => Buffer.byteLength(fields[field] ?? '') > EVERYDAY_LENGTH);
}

/**
 * The measures in which per-field limits explain every observation: each accepted create
 * has every field within its limit, each refused one has a field beyond it. In order:
 * characters, UTF-16 units, bytes.
 * @param limits the longest accepted length of each limited field (absent: no limit).
 * @returns the measures, or `{ unexplained }`: the refusal to report, the first that no
 *   limit explains in characters (or the first refusal, when an acceptance is what breaks
 *   every limit).
 */
export function explainingMeasures(
  observations: readonly LengthObservation[],
  limits: Partial<Record<Field, number>>,
): { measures: Measure[] } | { unexplained: LengthObservation } {
  const explains = (length: (text: string) => number) => (observation: LengthObservation) => {
    const over = FIELDS.some((field) => limits[field] !== undefined && length(observation.fields[field] ?? '') > limits[field]!);
    return observation.accepted ? !over : over;
  };
  const measures = MEASURES.filter(([, length]) => observations.every(explains(length))).map(([measure]) => measure);
  if (measures.length > 0) return { measures };
  // The finding is a refusal: the first refusal no limit explains, else the first refusal.
  const refused = observations.filter((observation) => !observation.accepted);
  return { unexplained: refused.find((observation) => !explains(MEASURES[0]![1])(observation)) ?? refused[0] ?? observations[0]! };
}

/**
 * Characters that tell the measures apart at a limit of `limit` ASCII characters: that
 * many CJK characters (one UTF-16 unit, three bytes each), then that many astral
 * characters (two units, four bytes). A measure is the one under which both probes'
 * outcomes are what the limit predicts.
 */
export const TELLING_CHARACTERS = ['中', '😀'] as const;

/** The measures consistent with how the probes of {@link TELLING_CHARACTERS} at `limit` characters were answered. */
export function measuresFromProbes(limit: number, outcomes: readonly ProbeOutcome[]): Measure[] {
  return MEASURES.filter(([, length]) =>
    TELLING_CHARACTERS.every((character, i) => (length(character.repeat(limit)) > limit ? 'refused' : 'accepted') === outcomes[i]),
  ).map(([measure]) => measure);
}

/** How the target answered a probe of one length. */
export type ProbeOutcome = 'accepted' | 'refused';

/**
 * The longest length a field accepts, by bisection between {@link EVERYDAY_LENGTH}
 * (which must be accepted) and `refusedAt` (which was refused): the boundary a limit
 * implies, found in about log2(refusedAt) probes. Probes are ASCII, where every measure
 * agrees.
 * @param probe sends a value of that many characters; throws (a CheckFailure) for an
 *   answer that is neither an exact acceptance nor a refusal.
 * @returns the limit, `{ everyday: true }` when an everyday length is refused, or
 *   undefined when `refusedAt` is accepted after all (no limit up to there).
 */
export async function bisectLimit(
  probe: (length: number) => Promise<ProbeOutcome>,
  refusedAt: number,
): Promise<number | { everyday: true } | undefined> {
  if ((await probe(EVERYDAY_LENGTH)) === 'refused') return { everyday: true };
  if ((await probe(refusedAt)) === 'accepted') return undefined;
  let accepted = EVERYDAY_LENGTH;
  let refused = refusedAt;
  // Bounded: the interval halves on every probe.
  while (refused - accepted > 1) {
    const mid = Math.floor((accepted + refused) / 2);
    if ((await probe(mid)) === 'accepted') accepted = mid;
    else refused = mid;
  }
  return accepted;
}

