import { BaseSequencer, type TestSpecification } from 'vitest/node';

/** Suite files whose checks read what every other check recorded: they run last (by name, compiled or not). */
const LAST = ['invariants'];

/** A suite file's name without folder and extension: `invariants` for `…/invariants.test.js`. */
const suiteName = (path: string) => path.replace(/^.*\//, '').replace(/\.test\.[cm]?[jt]s$/, '');

/**
 * The order of suite files, by module path: by path, with the invariants last, so that
 * the section-7 invariants see every exchange of the run. Reports list checks in it too.
 */
export function compareSuiteFiles(a: string, b: string): number {
  const rank = (path: string) => (LAST.includes(suiteName(path)) ? 1 : 0);
  return rank(a) - rank(b) || a.localeCompare(b);
}

/** Runs suite files in {@link compareSuiteFiles} order. */
export class SuiteSequencer extends BaseSequencer {
  override async sort(files: TestSpecification[]): Promise<TestSpecification[]> {
    return [...files].sort((a, b) => compareSuiteFiles(a.moduleId, b.moduleId));
  }
}
