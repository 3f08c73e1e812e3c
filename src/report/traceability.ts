import { CATALOGUE, OUT_OF_SCOPE } from '../requirements/catalogue.js';
import type { CheckResult, RequirementOutcome, TracedRequirement } from './model.js';

/**
 * Traces every requirement of the catalogue to the checks naming it, and to those whose
 * evidence breaks it. A requirement is decided by checks of its own level (an info probe
 * never decides a must rule), and fails only by evidence that breaks it: a failure whose
 * judgement names the requirements it breaks (FailureRecord.breaks) counts against those
 * alone, one that names none against every requirement its check serves. So a Category
 * with a string id, found by a sequence that also serves the key rule, fails section 2's
 * shape and 4.2/R1, never 4.2/R3. Outcome: `failed` when such a failure exists, `passed`
 * when none does and a check of it passed, `untested` when none ran to a verdict on it
 * (skipped by the profile or a filter, could not be evaluated, or failed on another rule),
 * `inapplicable` when no check can test it (the catalogue says why).
 */
export function traceRequirements(checks: readonly CheckResult[]): TracedRequirement[] {
  return CATALOGUE.map((requirement) => {
    const testing = checks.filter((check) => check.requirements.includes(requirement.id) || breaksOf(check)?.includes(requirement.id));
    const deciding = testing.filter((check) => check.level === requirement.level);
    const outcome: RequirementOutcome = requirement.inapplicable
      ? 'inapplicable'
      : deciding.some((check) => check.status === 'failed' && (breaksOf(check) ?? check.requirements).includes(requirement.id))
        ? 'failed'
        : deciding.some((check) => check.status === 'passed')
          ? 'passed'
          : 'untested';
    return {
      ...requirement,
      outcome,
      checks: testing.map((check) => ({ id: check.id, level: check.level, status: check.status, ...reasonFor(check, requirement.id) })),
    };
  });
}

/** The requirements a failed check's evidence breaks, when its judgement named them. */
const breaksOf = (check: CheckResult) => (check.status === 'failed' ? check.failure?.breaks : undefined);

/** Why a check gives no verdict on a requirement: its own reason, or the rules its failure broke instead. */
function reasonFor(check: CheckResult, id: string): { reason?: string } {
  const breaks = breaksOf(check);
  if (breaks && !breaks.includes(id)) return { reason: `failed on ${breaks.join(', ')}, not on this rule` };
  return check.reason ? { reason: check.reason } : {};
}

/** The parts of the spec marked "not shown", reported as out of scope. */
export { OUT_OF_SCOPE };
