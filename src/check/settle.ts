/**
 * Waits for every promise, then returns their values in order, or throws the first
 * rejection in their order. Unlike `Promise.all`, nothing is left running when it throws,
 * and which failure is thrown does not depend on which request ended first: the same in
 * every run against a target that answers alike.
 */
export async function settleAll<T>(promises: ReadonlyArray<Promise<T>>): Promise<T[]> {
  const outcomes = await Promise.allSettled(promises);
  const rejected = outcomes.find((outcome) => outcome.status === 'rejected');
  if (rejected) throw rejected.reason;
  return outcomes.map((outcome) => (outcome as PromiseFulfilledResult<T>).value);
}
