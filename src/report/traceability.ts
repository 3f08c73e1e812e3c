import { CATALOGUE, OUT_OF_SCOPE } from '../requirements/catalogue.js';
import type { CheckResult, RequirementOutcome, TracedRequirement } from './model.js';

/**
 * Traces every requirement of the catalogue to the checks naming it. A requirement is
 * decided by its checks of its own level (an info probe never decides a must rule):
 * `failed` when one failed, `passed` when none failed and one passed, `untested` when
 * none ran to a verdict (skipped by the profile or a filter, or could not be evaluated),
 * `inapplicable` when no check can test it (the catalogue says why).
 */
export function traceRequirements(checks: readonly CheckResult[]): TracedRequirement[] {
  return CATALOGUE.map((requirement) => {
    const testing = checks.filter((check) => check.requirements.includes(requirement.id));
    const deciding = testing.filter((check) => check.level === requirement.level);
    const outcome: RequirementOutcome = requirement.inapplicable
      ? 'inapplicable'
      : deciding.some((check) => check.status === 'failed')
        ? 'failed'
        : deciding.some((check) => check.status === 'passed')
          ? 'passed'
          : 'untested';
    return {
      ...requirement,
      outcome,
      checks: testing.map(({ id, level, status, reason }) => ({ id, level, status, ...(reason ? { reason } : {}) })),
    };
  });
}

/** The parts of the spec marked "not shown", reported as out of scope. */
export { OUT_OF_SCOPE };
