import { OUT_OF_SCOPE, REQUIREMENTS, type Requirement } from '../requirements/catalogue.js';
import type { CheckResult } from './model.js';

/** A requirement's outcome in a run. */
export type RequirementOutcome = 'passed' | 'failed' | 'untested' | 'inapplicable';

/** One row of the traceability matrix: requirement → checks → outcome. */
export interface TracedRequirement extends Requirement {
  outcome: RequirementOutcome;
  /** The checks that test it, with their statuses (and why they did not run, if they did not). */
  checks: Array<{ id: string; level: CheckResult['level']; status: CheckResult['status']; reason?: string }>;
}

/**
 * Traces every requirement of the catalogue to the checks naming it. A requirement is
 * decided by its checks of its own level (an info probe never decides a must rule):
 * `failed` when one failed, `passed` when none failed and one passed, `untested` when
 * none ran to a verdict (skipped by the profile or a filter, or could not be evaluated),
 * `inapplicable` when no check can test it (the catalogue says why).
 */
export function traceRequirements(checks: readonly CheckResult[]): TracedRequirement[] {
  return REQUIREMENTS.map((requirement) => {
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
