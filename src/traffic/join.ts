import type { CheckResult } from '../report/model.js';

/**
 * One report of an active run and a judged capture (`run --traffic`): each check's outcome
 * over both. A check that ran only on the capture takes the capture's outcome (`alone`);
 * one that ran both ways fails when either failed, and keeps the active failure when both
 * did (its replay reproduces it). Checks of the capture alone (answers-allowed-status)
 * join the list. Coverage is then the union of both.
 */
export function joinTraffic(active: readonly CheckResult[], traffic: readonly CheckResult[]): CheckResult[] {
  const judged = new Map(traffic.map((check) => [check.id, check]));
  const joined = active.map((check) => {
    const passive = judged.get(check.id);
    judged.delete(check.id);
    if (!passive?.traffic) return check;
    if (check.status === 'skipped') return passive;
    const failed = check.status === 'failed' || passive.status === 'failed';
    return {
      ...check,
      status: failed ? ('failed' as const) : check.status,
      traffic: { ...passive.traffic, alone: false },
      ...(check.status !== 'failed' && passive.failure ? { failure: passive.failure } : {}),
    };
  });
  return [...joined, ...judged.values()];
}
