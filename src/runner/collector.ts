import type { Reporter, SerializedError, TestCase, TestModule, TestRunEndReason, TestSuite } from 'vitest/node';
import type { CheckMeta, CreatedCategory } from '../check/types.js';
import type { Exchange } from '../core/exchange.js';
import type { CheckResult } from '../report/model.js';
import { NOT_RUN_INTERRUPTED, NOT_SELECTED } from '../check/reasons.js';
import { withCauses } from '../core/tool-failure.js';

/**
 * A vitest reporter that turns each finished test into a {@link CheckResult} (from the
 * check's `task.meta`), hands it to `onCheck` as soon as it finishes, and keeps what the
 * report needs: results in declaration order, exchanges, created categories, run errors.
 */
export class CheckCollector implements Reporter {
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

  onTestModuleCollected(module: TestModule): void {
    this.total = (this.total ?? 0) + [...module.children.allTests()].filter((testCase) => this.#mine(testCase)).length;
  }

  onTestCaseResult(testCase: TestCase): void {
    if (this.#mine(testCase)) this.#accept(testCase);
  }

  /** Whether a test belongs to this collector's target (a test without meta is everyone's defect). */
  #mine(testCase: TestCase): boolean {
    const runId = testCase.meta().check?.runId;
    return this.runId === undefined || runId === undefined || runId === this.runId;
  }

  /**
   * Accounts for a target's checks when its block of the suite ends (a lane's targets end
   * one by one, and each is reported as it ends).
   * @returns whether the block held this collector's checks.
   */
  onTargetEnd(block: TestSuite): boolean {
    const tests = [...block.children.allTests()].filter((testCase) => this.#mine(testCase));
    if (this.#accounted || tests.length === 0) return false;
    this.#account(tests);
    return true;
  }

  onTestRunEnd(modules: ReadonlyArray<TestModule>, unhandled: ReadonlyArray<SerializedError>, reason: TestRunEndReason): void {
    if (reason === 'interrupted') this.interrupted = true;
    for (const module of modules) {
      for (const error of module.errors()) this.runErrors.push(`${module.moduleId}: ${error.message}`);
      if (!this.#accounted) this.#account([...module.children.allTests()].filter((testCase) => this.#mine(testCase)));
    }
    for (const error of unhandled) this.runErrors.push(`unhandled error: ${withCauses(error)}`);
  }

  /** Puts the checks in declaration order; tests filtered out or never started produce no result event, so they are accepted here. */
  #account(tests: readonly TestCase[]): void {
    this.#accounted = true;
    for (const testCase of tests) {
      const id = testCase.meta().check?.id ?? testCase.name;
      this.#order.push(id);
      if (!this.#byId.has(id)) this.#accept(testCase);
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
    return [...this.#created.values()].flat();
  }

  #accept(testCase: TestCase): void {
    const meta = testCase.meta().check;
    if (!meta) {
      this.runErrors.push(`suite test "${testCase.fullName}" is not declared with check()`);
      return;
    }
    if (meta.secrets) this.onSecrets(meta.secrets);
    // A check reported twice (vitest reports again the checks of a cancelled run) keeps the
    // exchanges it was first reported with: they are taken out of its meta below.
    const exchanges = this.#exchanges.get(meta.id) ?? meta.exchanges;
    const unrun = this.interrupted ? NOT_RUN_INTERRUPTED : NOT_SELECTED;
    const result = toCheckResult(meta, testCase, unrun, exchanges.length);
    const first = !this.#byId.has(meta.id);
    this.stopped ??= meta.stopped;
    this.#byId.set(meta.id, result);
    this.#exchanges.set(meta.id, exchanges);
    this.#created.set(meta.id, meta.created);
    if (first) this.onCheck(result, exchanges);
    // vitest keeps every task's meta until its run ends: the exchanges are this collector's
    // now, and go when it lets go of them (a lane of 50 targets would hold them all).
    meta.exchanges = [];
  }
}

/**
 * @param unrun the reason given to a check that never started.
 * @param requests how many requests it sent.
 */
function toCheckResult(meta: CheckMeta, testCase: TestCase, unrun: string, requests: number): CheckResult {
  const outcome = testCase.result();
  const result: CheckResult = {
    id: meta.id,
    title: meta.title,
    clause: meta.clause,
    level: meta.level,
    status: 'passed',
    durationMs: Math.round(testCase.diagnostic()?.duration ?? 0),
    requests,
    requirements: meta.requirements,
  };
  if (meta.reference) result.reference = meta.reference;
  // A verdict stands on its evidence: a check whose exchanges did not all reach the report cannot pass.
  if (outcome.state === 'passed' && meta.recorded !== undefined && requests < meta.recorded) {
    result.status = 'error';
    result.reason = `${meta.recorded - requests} of the ${meta.recorded} exchanges it recorded did not reach the report: a pass without its evidence does not stand`;
    return result;
  }
  if (meta.needs) result.needs = meta.needs;
  if (meta.property) result.property = meta.property;
  if (meta.observations) result.observations = meta.observations;
  // A check under way when the run was cancelled may be 'skipped' to vitest: what it
  // recorded itself (an error: the stop abandoned its request) comes first.
  if ((outcome.state === 'skipped' || outcome.state === 'pending') && meta.outcome?.status !== 'error') {
    result.status = 'skipped';
    // vitest's own note ("The test run was aborted by the user.") is replaced by ours.
    result.reason = meta.outcome?.reason ?? unrun;
  } else if (outcome.state === 'failed' || outcome.state === 'skipped' || outcome.state === 'pending') {
    if (meta.failure) {
      result.status = 'failed';
      result.failure = meta.failure;
    } else {
      result.status = 'error';
      result.reason = meta.outcome?.reason ?? outcome.errors?.[0]?.message ?? 'the check ended without a verdict';
    }
  }
  return result;
}

/**
 * The one reporter of a run whose worker checks several targets (a fleet's lane): every
 * event goes to every target's collector, which keeps its own target's checks.
 */
export function laneReporter(collectors: readonly CheckCollector[], onTargetEnd: (collector: CheckCollector) => void = () => {}): Reporter {
  return {
    onTestModuleCollected: (module) => collectors.forEach((collector) => collector.onTestModuleCollected(module)),
    onTestCaseResult: (testCase) => collectors.forEach((collector) => collector.onTestCaseResult(testCase)),
    // A target's block is a top-level suite of the file.
    onTestSuiteResult: (suite) => {
      if (suite.parent.type !== 'module') return;
      for (const collector of collectors) if (collector.onTargetEnd(suite)) onTargetEnd(collector);
    },
    onTestRunEnd: (modules, unhandled, reason) => collectors.forEach((collector) => collector.onTestRunEnd(modules, unhandled, reason)),
  };
}
