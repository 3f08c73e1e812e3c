import { create } from 'xmlbuilder2';
import { failureText } from './failure-text.js';
import { escaped } from './visible.js';
import type { CheckResult, Report } from './model.js';

/** The spec section a clause belongs to: `4.2/R2` → `4.2`. */
const sectionOf = (clause: string) => clause.split('/')[0]!;

/**
 * report.json as JUnit XML, in the dialect GitHub, GitLab and Jenkins read: one
 * testsuite per spec section, one testcase per check named `<id> (<clause>)` with a
 * classname per section (`petstore_conformance.section_4_2`: Jenkins splits classnames on
 * dots), times in seconds. A failed must check is a `<failure>` carrying the message, the
 * failing exchange and a curl reproduction; should and info findings, which never decide
 * the verdict, are `<skipped>` with their message; a check that could not be evaluated
 * is an `<error>`.
 */
export function renderJunit(report: Report): string {
  const sections = new Map<string, CheckResult[]>();
  for (const check of report.checks) {
    const section = sectionOf(check.clause);
    sections.set(section, [...(sections.get(section) ?? []), check]);
  }
  const count = (checks: CheckResult[], test: (c: CheckResult) => boolean) => String(checks.filter(test).length);
  const isFailure = (c: CheckResult) => c.status === 'failed' && c.level === 'must';
  const isSkipped = (c: CheckResult) => c.status === 'skipped' || (c.status === 'failed' && c.level !== 'must');
  const seconds = (ms: number) => (ms / 1000).toFixed(3);

  const root = create({ version: '1.0', encoding: 'UTF-8', invalidCharReplacement: escaped }).ele('testsuites', {
    name: 'petstore-conformance',
    tests: String(report.checks.length),
    failures: count(report.checks, isFailure),
    errors: count(report.checks, (c) => c.status === 'error'),
    time: seconds(report.durationMs),
  });
  for (const [section, checks] of sections) {
    const suite = root.ele('testsuite', {
      name: `section ${section}`,
      tests: String(checks.length),
      failures: count(checks, isFailure),
      errors: count(checks, (c) => c.status === 'error'),
      skipped: count(checks, isSkipped),
      time: seconds(checks.reduce((sum, c) => sum + c.durationMs, 0)),
      timestamp: report.startedAt,
    });
    const properties = suite.ele('properties');
    for (const [name, value] of [
      ['target', report.target.baseUrl],
      ['verdict', report.verdict],
      ['seed', String(report.settings.seed)],
      ['profile', report.settings.profile],
    ]) {
      properties.ele('property', { name, value });
    }
    for (const check of checks) {
      const testcase = suite.ele('testcase', {
        name: `${check.id} (${check.clause})`,
        classname: `petstore_conformance.section_${section.replace(/\./g, '_')}`,
        time: seconds(check.durationMs),
      });
      if (check.status === 'skipped') testcase.ele('skipped', { message: check.reason ?? 'skipped' });
      else if (check.status === 'error') testcase.ele('error', { message: check.reason ?? 'the check could not be evaluated', type: 'error' });
      else if (check.failure && check.level !== 'must') {
        testcase.ele('skipped', { message: `${check.level} finding, not counted in the verdict: ${check.failure.message.split('\n')[0]}` });
      } else if (check.failure) {
        testcase.ele('failure', { message: check.failure.message.split('\n')[0], type: check.level }).txt(failureText(check));
      }
    }
  }
  return root.end({ prettyPrint: true });
}
