import { BaseSequencer, type TestSpecification } from 'vitest/node';

/** Suite files whose checks read what every other check recorded: they run last. */
const LAST = ['invariants.test.ts'];

/**
 * Orders suite files deterministically (by path), with the invariants last, so that the
 * section-7 invariants see every exchange of the run.
 */
export class SuiteSequencer extends BaseSequencer {
  override async sort(files: TestSpecification[]): Promise<TestSpecification[]> {
    const rank = (file: TestSpecification) => (LAST.some((name) => file.moduleId.endsWith(`/${name}`)) ? 1 : 0);
    return [...files].sort((a, b) => rank(a) - rank(b) || a.moduleId.localeCompare(b.moduleId));
  }
}
