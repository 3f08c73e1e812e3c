/**
 * One input of a property's coverage phase: a known trigger or boundary value, sent in
 * every run whatever the seed (as Schemathesis's coverage phase precedes its fuzzing), so
 * that a known fault is found in every run and randomness only adds variety on top.
 */
export interface CoverageInput<T> {
  /** What the input is, in a few words: `name holding NUL`. Shown by `list --format json`. */
  label: string;
  value: T;
}

/** A coverage input. */
export const covers = <T>(label: string, value: T): CoverageInput<T> => ({ label, value });

/** The labels of a coverage phase, for the check's declaration (`list --format json` shows them). */
export const coverageLabels = (inputs: ReadonlyArray<CoverageInput<unknown>>): string[] => inputs.map(({ label }) => label);
