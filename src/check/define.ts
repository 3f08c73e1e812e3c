import { test } from 'vitest';
import { CheckContext } from './context.js';
import { failureRecord } from './failure-record.js';
import { CheckError, CheckFailure, hasCode } from '../core/errors.js';
import { KEY_IN_URL_WITHHELD, NOT_RUN_INTERRUPTED, NOT_RUN_TOOL_FAILED, NOT_SELECTED, UNTESTED_READ_ONLY } from './reasons.js';
import { isToolFailureLine } from '../core/tool-failure.js';
import { runState } from './run-state.js';
import { keyMayGoInUrl, type RunSettings } from '../config/settings.js';
import { checkIdMatches } from '../config/check-pattern.js';
import type { CheckDefinition, CheckMeta } from './types.js';


/** Options of {@link check} beyond its definition. */
export interface CheckOptions {
  /**
   * Run after the checks of its conformance class declared before it, and before those
   * declared after it (for checks that read what earlier checks did, or that should not
   * overlap their neighbours). Other classes run on meanwhile. By default a check runs
   * concurrently with every other.
   */
  sequential?: boolean;
  /** Requests the check sends one after another at most; sizes its time budget. */
  serialRequests?: number;
  /** For checks whose time is not counted in requests (properties): their budget in ms. */
  timeLimitMs?: number;
  /**
   * The check judges the run's first look at the target (`t.firstLook()`): a list sent
   * before any request that may write (a store that starts empty is seen empty).
   */
  firstLook?: boolean;
}

/**
 * Declares a conformance check as a vitest test named by its id. The definition and
 * every exchange the check makes reach the runner through `task.meta.check`; a thrown
 * {@link CheckFailure} marks it `failed`, a {@link CheckError} or any other exception
 * `error`, and `skip(reason)` `skipped`.
 */
export function check(
  definition: CheckDefinition,
  body: (t: CheckContext, skip: (reason: string) => never) => Promise<void>,
  options: CheckOptions = {},
): void {
  const run = runState();
  const settings = run.settings;
  const chosen = isSelected(settings, definition.id);
  const register = !chosen ? test.skip : options.sequential ? test.sequential : test.concurrent;
  // Every request is bounded by the client's deadline, and by the run's patience while the
  // target refuses it: this only catches a stuck check.
  const timeout = (options.timeLimitMs ?? 0) + (settings.timeoutMs + settings.patienceSeconds * 1000) * ((options.serialRequests ?? 3) + 1) + 5_000;
  // The definition travels from registration on, so checks a filter skips are still reported.
  const declared: CheckMeta = { ...definition, runId: settings.runId, exchanges: [], created: [] };
  if (!chosen) declared.outcome = { status: 'skipped', reason: NOT_SELECTED };
  if (chosen && options.firstLook) run.takeFirstLook(definition.id);
  register(definition.id, { timeout, meta: { check: declared } }, async ({ task, skip }) => {
    run.levels.set(definition.id, definition.level);
    const t = new CheckContext(definition.id, run);
    const meta = task.meta.check!;
    try {
      // vitest hears of the stop later than the run state does: a check it starts meanwhile does not run.
      if (run.interrupted) {
        meta.outcome = { status: 'skipped', reason: NOT_RUN_INTERRUPTED };
        return skip(NOT_RUN_INTERRUPTED);
      }
      if (definition.writes && run.settings.profile === 'read-only') {
        meta.outcome = { status: 'skipped', reason: UNTESTED_READ_ONLY };
        return skip(UNTESTED_READ_ONLY);
      }
      if (definition.keyInUrl && !keyMayGoInUrl(run.settings)) {
        meta.outcome = { status: 'skipped', reason: KEY_IN_URL_WITHHELD };
        return skip(KEY_IN_URL_WITHHELD);
      }
      await body(t, (reason) => {
        meta.outcome = { status: 'skipped', reason };
        return skip(reason) as never;
      });
    } catch (error) {
      if (hasCode(error, 'PCS_CHECK_FAILURE')) meta.failure = failureRecord(error, definition.id);
      else if (hasCode(error, 'PCS_ROUTE_HUNG') && error.identical) {
        // The very request this check needed got no response when another check sent it.
        const deviation = { expected: 'a response', found: `no response (${error.evidence.error?.code})` };
        meta.failure = failureRecord(new CheckFailure(`Expected a response, received none: ${error.message}`, error.evidence, deviation), definition.id);
      } else if (isToolFailureLine(run.guard.stopped)) {
        // The tool's own failure is said once, by the runner; each check it kept from judging (stopped, or left without what it needed) is only not run.
        meta.stopped = run.guard.stopped;
        meta.outcome = { status: 'skipped', reason: NOT_RUN_TOOL_FAILED };
        return skip(NOT_RUN_TOOL_FAILED);
      } else if (hasCode(error, 'PCS_RUN_STOPPED') && run.interrupted && t.exchanges.length === 0) {
        // Started as the stop arrived, it sent nothing: not run, like the checks after it.
        meta.outcome = { status: 'skipped', reason: NOT_RUN_INTERRUPTED };
        return skip(NOT_RUN_INTERRUPTED);
      } else if (meta.outcome?.status !== 'skipped') {
        if (hasCode(error, 'PCS_RUN_STOPPED')) meta.stopped = run.guard.stopped;
        meta.outcome = { status: 'error', reason: hasCode(error, 'PCS_CHECK_ERROR') ? error.message : String(error) };
      }
      // What vitest needs is that the test failed: the finding is in meta already. vitest
      // serializes what is thrown, own properties included; a failure carries its exchange,
      // whose body may be 16 MiB.
      throw new Error(error instanceof Error ? error.message : String(error));
    } finally {
      // A request its body left running (a Promise.all that rejected first) is still its own.
      await t.ended();
      meta.exchanges = t.exchanges;
      meta.recorded = t.exchanges.length;
      run.client.release(definition.id);
      if (t.property) meta.property = t.property;
      if (t.observations.length > 0) meta.observations = t.observations;
      if (t.secrets.size > 0) meta.secrets = [...t.secrets].map(([value, shown]) => ({ value, shown }));
      meta.created = [...run.created.filter((category) => category.checkId === definition.id), ...run.storedUnannounced(definition.id)];
    }
  });
}

/** Whether the run selects the check `id` (`--checks`; all by default). */
export function isSelected(settings: Pick<RunSettings, 'checkFilter'>, id: string): boolean {
  return settings.checkFilter === undefined || checkIdMatches(settings.checkFilter, id);
}


