import { create } from 'xmlbuilder2';
import { failureText } from './failure-text.js';
import { escaped, visible } from './visible.js';
import type { CheckResult, Report } from './model.js';
import { countsForVerdict, failsRun } from './verdict.js';

/** The spec section a clause belongs to: `4.2/R2` → `4.2`. */
const sectionOf = (clause: string) => clause.split('/')[0]!;

type Element = ReturnType<ReturnType<typeof create>['ele']>;

const seconds = (ms: number) => (ms / 1000).toFixed(3);
const count = (checks: readonly Judged[], test: (c: Judged) => boolean) => checks.filter(test).length;
/** A check with the verdict policy of its run (`--strict`): what counts as a JUnit failure is what fails the run. */
interface Judged {
  check: CheckResult;
  strict: boolean;
}
const isFailure = ({ check, strict }: Judged) => failsRun(check, strict);
const isError = ({ check }: Judged) => check.status === 'error';
const isSkipped = ({ check, strict }: Judged) => check.status === 'skipped' || (check.status === 'failed' && !countsForVerdict(check, strict));
const judged = (report: Report) => report.checks.map((check) => ({ check, strict: report.settings.strict }));
const classOf = (section: string) => `section_${section.replace(/\./g, '_')}`;

/**
 * report.json as JUnit XML, in the dialect GitHub, GitLab and Jenkins read: one
 * testsuite per spec section, one testcase per check named `<id> (<clause>)` with a
 * classname per section (`petstore_conformance.section_4_2`: Jenkins splits classnames on
 * dots), times in seconds. A failed must check is a `<failure>` carrying the message, the
 * failing exchange and a curl reproduction; so is a failed should check under `--strict`
 * (one policy: verdict.ts countsForVerdict). Findings that do not decide the verdict are
 * `<skipped>` with their message; a check that could not be evaluated is an `<error>`.
 */
export function renderJunit(report: Report): string {
  const sections = new Map<string, Judged[]>();
  for (const item of judged(report)) {
    const section = sectionOf(item.check.clause);
    sections.set(section, [...(sections.get(section) ?? []), item]);
  }
  const root = testsuites(judged(report), 0, report.durationMs);
  for (const [section, checks] of sections) testsuite(root, `section ${section}`, checks, report, () => `petstore_conformance.${classOf(section)}`);
  // What XML allows but no reader should meet (C1, bidirectional controls, noncharacters) as escapes: the markup holds none.
  return visible(root.end({ prettyPrint: true }));
}

/**
 * A fleet's JUnit XML: one testsuite per target, named by it, holding its checks as
 * {@link renderJunit} writes them (classnames `petstore_conformance.<target>.section_4_2`).
 * A target that could not be assessed also gets an `<error>` testcase, `assessable`, with
 * the reason: a gate reading JUnit alone sees it.
 * @param durationMs the fleet's wall time.
 */
export function renderFleetJunit(targets: ReadonlyArray<{ name: string; report: Report }>, durationMs: number): string {
  const unassessed = targets.filter(({ report }) => report.verdict === 'error').length;
  const root = testsuites(targets.flatMap(({ report }) => judged(report)), unassessed, durationMs);
  for (const { name, report } of targets) {
    const suite = testsuite(root, name, judged(report), report, (check) => `petstore_conformance.${name}.${classOf(sectionOf(check.clause))}`, report.verdict === 'error');
    if (report.verdict === 'error') {
      suite.ele('testcase', { name: 'assessable', classname: `petstore_conformance.${name}`, time: '0.000' }).ele('error', { message: report.verdictReason, type: 'not-assessable' });
    }
  }
  // What XML allows but no reader should meet (C1, bidirectional controls, noncharacters) as escapes: the markup holds none.
  return visible(root.end({ prettyPrint: true }));
}

/** The `<testsuites>` root, its counts over `checks` plus `extraErrors` testcases. */
function testsuites(checks: readonly Judged[], extraErrors: number, durationMs: number): Element {
  return create({ version: '1.0', encoding: 'UTF-8', invalidCharReplacement: escaped }).ele('testsuites', {
    name: 'petstore-conformance',
    tests: String(checks.length + extraErrors),
    failures: String(count(checks, isFailure)),
    errors: String(count(checks, isError) + extraErrors),
    time: seconds(durationMs),
  });
}

/** One `<testsuite>` of `checks`, with the run's properties; `extraError`: one more error testcase follows. */
function testsuite(root: Element, name: string, checks: readonly Judged[], report: Report, classname: (check: CheckResult) => string, extraError = false): Element {
  const extra = extraError ? 1 : 0;
  const suite = root.ele('testsuite', {
    name,
    tests: String(checks.length + extra),
    failures: String(count(checks, isFailure)),
    errors: String(count(checks, isError) + extra),
    skipped: String(count(checks, isSkipped)),
    time: seconds(checks.reduce((sum, { check }) => sum + check.durationMs, 0)),
    timestamp: report.startedAt,
  });
  const properties = suite.ele('properties');
  for (const [property, value] of [
    ['target', report.target.baseUrl],
    ['verdict', report.verdict],
    ['seed', String(report.settings.seed)],
    ['profile', report.settings.profile],
  ]) {
    properties.ele('property', { name: property, value });
  }
  for (const item of checks) {
    const { check } = item;
    const testcase = suite.ele('testcase', { name: `${check.id} (${check.clause})`, classname: classname(check), time: seconds(check.durationMs) });
    if (check.status === 'skipped') testcase.ele('skipped', { message: check.reason ?? 'skipped' });
    else if (check.status === 'error') testcase.ele('error', { message: check.reason ?? 'the check could not be evaluated', type: 'error' });
    else if (check.failure && !isFailure(item)) {
      testcase.ele('skipped', { message: `${check.level} finding, not counted in the verdict: ${check.failure.message.split('\n')[0]}` });
    } else if (check.failure) {
      testcase.ele('failure', { message: check.failure.message.split('\n')[0], type: check.level }).txt(failureText(check));
    }
  }
  return suite;
}
