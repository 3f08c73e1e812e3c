import type { CheckMeta, CreatedCategory } from '../check/types.js';
import type { Exchange } from '../core/exchange.js';
import type { CheckResult } from '../report/model.js';
import { NOT_RUN_INTERRUPTED, NOT_SELECTED } from '../check/reasons.js';
import type { FromSuiteThread, SuiteTest } from './suite-protocol.js';

/**
 * Turns each finished test of the suite's thread into a {@link CheckResult} (from the
 * check's `task.meta`), hands it to `onCheck` as soon as it finishes, and keeps what the
 * report needs: results in declaration order, exchanges, created categories, run errors.
 */
export class CheckCollector {
  readonly #byId = new Map<string, CheckResult>();
  readonly #exchanges = new Map<string, Exchange[]>();
  readonly #created = new Map<string, CreatedCategory[]>();
  #order: string[] = [];
  /** Whether the declaration order is known: the target's block, or the run, has ended. */
  #accounted = false;
  /** Problems of the run itself: suite modules that failed to load, unhandled errors. */
  readonly runErrors: string[] = [];
  /** Set when the run was cut short: checks that never started are reported as not run. */
  interrupted = false;
  /** Why the run stopped sending (a budget, 429s, a 5xx burst), when a check reported it. */
  stopped: string | undefined;
  /** How many checks the suite declares for this target, once its file is collected (before any runs). */
  total: number | undefined;

  /**
   * @param onCheck receives each result as soon as its check finishes, with the check's
   *   exchanges (bodies capped).
   * @param onSecrets receives the key material a check sent, before its result is printed.
   * @param runId the target whose checks this collector keeps, when the worker runs several
   *   (a fleet's lane); absent: every check.
   */
  constructor(
    private readonly onCheck: (result: CheckResult, exchanges: readonly Exchange[]) => void = () => {},
    private readonly onSecrets: (secrets: ReadonlyArray<{ value: string; shown: string }>) => void = () => {},
    readonly runId?: string,
  ) {}

  /** The suite's file is collected: how many checks it declares for this target. */
  onCollected(tests: readonly SuiteTest[]): void {
    this.total = (this.total ?? 0) + tests.filter((test) => this.#mine(test)).length;
  }

  /** A test ended (passed, failed, skipped, or never started in a cancelled run). */
  onTestResult(test: SuiteTest): void {
    if (this.#mine(test)) this.#accept(test);
  }

  /** Whether a test belongs to this collector's target (a test without meta is everyone's defect). */
  #mine(test: SuiteTest): boolean {
    const runId = test.meta?.runId;
    return this.runId === undefined || runId === undefined || runId === this.runId;
  }

  /**
   * Accounts for a target's checks when its block of the suite ends (a lane's targets end
   * one by one, and each is reported as it ends).
   * @returns whether the block held this collector's checks.
   */
  onTargetEnd(block: readonly SuiteTest[]): boolean {
    const tests = block.filter((test) => this.#mine(test));
    if (this.#accounted || tests.length === 0) return false;
    this.#account(tests);
    return true;
  }

  /**
   * The run ended.
   * @param tests every test of the suite, in its final state.
   * @param fileErrors errors of a suite file that did not load.
   * @param unhandled errors nobody caught while the checks ran.
   * @param cancelled whether the run was cancelled.
   */
  onRunEnd(tests: readonly SuiteTest[], fileErrors: readonly string[], unhandled: readonly string[], cancelled: boolean): void {
    if (cancelled) this.interrupted = true;
    this.runErrors.push(...fileErrors, ...unhandled.map((error) => `the tool failed: an error nobody caught: ${error}`));
    if (!this.#accounted) this.#account(tests.filter((test) => this.#mine(test)));
  }

  /** Puts the checks in declaration order; a test that never reported a result is accepted here. */
  #account(tests: readonly SuiteTest[]): void {
    this.#accounted = true;
    for (const test of tests) {
      const id = test.meta?.id ?? test.name;
      this.#order.push(id);
      if (!this.#byId.has(id)) this.#accept(test);
    }
  }

  /** Lets go of what was collected, once the target's report is built (a fleet holds many targets). */
  release(): void {
    this.#byId.clear();
    this.#exchanges.clear();
    this.#created.clear();
    this.#order = [];
  }

  /** Every check's result, in the order the suite declares them. */
  get results(): CheckResult[] {
    const ordered = this.#order.flatMap((id) => this.#byId.get(id) ?? []);
    return ordered.length === this.#byId.size ? ordered : [...this.#byId.values()];
  }

  /** Every exchange the checks made, in the order they were sent. */
  get exchanges(): Exchange[] {
    return [...this.#exchanges.values()].flat().sort((a, b) => a.seq - b.seq);
  }

  /** Categories the target reported as created, grouped by check. */
  get created(): CreatedCategory[] {
    const all = [...this.#created.values()].flat();
    const announced = all.filter((category) => !category.unannounced);
    const announcedIds = new Set(announced.map((category) => category.id));
    // A category a list showed before its create's answer arrived is that create's; one whose
    // create answered without an id (`unknown`) is that create's too, and the list gives its id.
    const idless = announced.filter((category) => category.id === 'unknown');
    const found = new Map<CreatedCategory, string>();
    const unannounced = all.filter((category) => {
      if (!category.unannounced || announcedIds.has(category.id)) return false;
      const create = idless.find((other) => other.name === category.name && !found.has(other));
      if (create) found.set(create, category.id);
      return create === undefined;
    });
    return [...announced.map((category) => (found.has(category) ? { ...category, id: found.get(category)! } : category)), ...unannounced];
  }


  #accept(test: SuiteTest): void {
    const meta = test.meta;
    if (!meta) {
      // Heard as it ended and again with its block's end: said once.
      const line = `suite test "${test.fullName}" is not declared with check()`;
      if (!this.runErrors.includes(line)) this.runErrors.push(line);
      return;
    }
    if (meta.secrets) this.onSecrets(meta.secrets);
    // A check reported twice (once as it ended, again with the run's end) keeps the
    // exchanges it was first reported with: they are taken out of its meta below.
    const exchanges = this.#exchanges.get(meta.id) ?? meta.exchanges;
    const unrun = this.interrupted ? NOT_RUN_INTERRUPTED : NOT_SELECTED;
    const result = toCheckResult(meta, test, unrun, exchanges.length);
    const first = !this.#byId.has(meta.id);
    this.stopped ??= meta.stopped;
    this.#byId.set(meta.id, result);
    this.#exchanges.set(meta.id, exchanges);
    this.#created.set(meta.id, meta.created);
    if (first) this.onCheck(result, exchanges);
    // The message is shared by a lane's collectors: the exchanges are this collector's
    // now, and go when it lets go of them (a lane of 50 targets would hold them all).
    meta.exchanges = [];
  }
}

/**
 * @param unrun the reason given to a check that never started.
 * @param requests how many requests it sent.
 */
function toCheckResult(meta: CheckMeta, test: SuiteTest, unrun: string, requests: number): CheckResult {
  const result: CheckResult = {
    id: meta.id,
    title: meta.title,
    clause: meta.clause,
    level: meta.level,
    status: 'passed',
    durationMs: Math.round(test.durationMs),
    requests,
    requirements: meta.requirements,
  };
  if (meta.reference) result.reference = meta.reference;
  // A verdict stands on its evidence: a check whose exchanges did not all reach the report cannot pass.
  if (test.state === 'passed' && meta.recorded !== undefined && requests < meta.recorded) {
    result.status = 'error';
    result.reason = `${meta.recorded - requests} of the ${meta.recorded} exchanges it recorded did not reach the report: a pass without its evidence does not stand`;
    return result;
  }
  if (meta.needs) result.needs = meta.needs;
  if (meta.property) result.property = meta.property;
  if (meta.observations) result.observations = meta.observations;
  // A check under way when the run was cancelled may be 'skipped' to the runner: what it
  // recorded itself (an error: the stop abandoned its request) comes first.
  if ((test.state === 'skipped' || test.state === 'pending') && meta.outcome?.status !== 'error') {
    result.status = 'skipped';
    // vitest's own note ("The test run was aborted by the user.") is replaced by ours.
    result.reason = meta.outcome?.reason ?? unrun;
  } else if (test.state === 'failed' || test.state === 'skipped' || test.state === 'pending') {
    if (meta.failure) {
      result.status = 'failed';
      result.failure = meta.failure;
    } else {
      result.status = 'error';
      result.reason = meta.outcome?.reason ?? test.errors?.[0] ?? 'the check ended without a verdict';
    }
  }
  return result;
}

/**
 * Hands each message of the suite's thread about its checks (the probes go to lane.ts) to
 * a lane's collectors (one per target; each keeps its own target's checks). `onTargetEnd`
 * hears of a collector whose target's block of the suite has ended.
 */
export function laneListener(collectors: readonly CheckCollector[], onTargetEnd: (collector: CheckCollector) => void = () => {}): (message: Exclude<FromSuiteThread, { type: 'probe' | 'preflight' }>) => void {
  return (message) => {
    switch (message.type) {
      case 'collected':
        return collectors.forEach((collector) => collector.onCollected(message.tests));
      case 'result':
        return collectors.forEach((collector) => collector.onTestResult(message.test));
      case 'block-end':
        for (const collector of collectors) if (collector.onTargetEnd(message.tests)) onTargetEnd(collector);
        return;
      case 'end':
        return collectors.forEach((collector) => collector.onRunEnd(message.tests, message.fileErrors, message.unhandled, message.cancelled));
    }
  };
}
