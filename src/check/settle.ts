/**
 * Waits for every promise, then returns their values in order, or throws the first
 * rejection. Unlike `Promise.all`, nothing is left running when it throws: every request
 * a check started has ended, so each one is in the check's record.
 */
export async function settleAll<T>(promises: ReadonlyArray<Promise<T>>): Promise<T[]> {
  const outcomes = await Promise.allSettled(promises);
  const rejected = outcomes.find((outcome) => outcome.status === 'rejected');
  if (rejected) throw rejected.reason;
  return outcomes.map((outcome) => (outcome as PromiseFulfilledResult<T>).value);
}
