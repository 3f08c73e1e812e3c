/**
 * Every count a user reads, at 0, 1 and 2, in each renderer (issue 60 §1): a report with
 * that many checks of one kind (must, should and info failures, passed and untested must
 * checks, known failures) or that many of one traffic count (entries, judged, other, bodies
 * not kept, entries not read, repairs), beside one passed must check, rendered to the
 * console's summary, summary.md (the GitHub action's step summary), report.html's text and
 * junit.xml's counts. Only the lines that hold a count are kept, in one snapshot: a plural
 * wrong at exactly one (or zero) of something, or a count of the wrong thing, shows as a diff.
 * Update with `npx vitest run -u` after reading the diff.
 */
import { describe, expect, test } from 'vitest';
import { withDefaults, type RunSettings } from '../../src/config/settings.js';
import { buildReport, type RunRecord } from '../../src/report/build.js';
import { ConsoleFormat } from '../../src/report/console.js';
import { renderHtml } from '../../src/report/html.js';
import { renderJunit } from '../../src/report/junit.js';
import type { CheckResult, Report, TrafficSummary } from '../../src/report/model.js';
import { renderSummary } from '../../src/report/summary-md.js';
import { NOT_IN_TRAFFIC } from '../../src/check/reasons.js';
import { answered } from '../support/exchanges.js';

const settings: RunSettings = { ...withDefaults({}), baseUrl: 'http://127.0.0.1:9/v1', apiKey: 'k', targetKind: 'external', seed: 7, runId: 'counts', userAgent: 'x', profile: 'full', profileSource: 'default' };

const failure = { message: 'Expected status 201, received 200', expected: 'status 201', found: 'status 200', request: answered(200, []).request };

/** The n-th check of a kind: ids differ, so that each counts apart. */
function check(kind: string, level: CheckResult['level'], i: number, status: CheckResult['status']): CheckResult {
  return {
    id: `${kind}-${i}`,
    title: `the ${kind} check ${i}`,
    clause: '4.2',
    level,
    requirements: [],
    status,
    durationMs: 1,
    requests: 1,
    ...(status === 'failed' ? { failure: { ...failure, message: `${failure.message} (${kind} ${i})` } } : {}),
    ...(status === 'skipped' ? { reason: 'not in the read-only profile' } : {}),
  };
}

const times = <T>(n: number, make: (i: number) => T): T[] => Array.from({ length: n }, (_, i) => make(i + 1));

/** One passed must check: every report below stands on it. */
const BASELINE = check('baseline', 'must', 0, 'passed');

/** The checks of each kind, n of them. */
const CHECK_KINDS: Record<string, (n: number) => CheckResult[]> = {
  'must checks failed': (n) => times(n, (i) => check('must-failed', 'must', i, 'failed')),
  'should checks failed': (n) => times(n, (i) => check('should-failed', 'should', i, 'failed')),
  'info checks failed': (n) => times(n, (i) => check('info-failed', 'info', i, 'failed')),
  'must checks passed, besides the baseline': (n) => times(n, (i) => check('must-passed', 'must', i, 'passed')),
  'must checks untested': (n) => times(n, (i) => check('must-untested', 'must', i, 'skipped')),
};

/** A judged capture's counts, each set to n in turn. */
const TRAFFIC: TrafficSummary = { files: ['/captures/a.har'], entries: 3, judged: 2, other: 1, missing: {} };
const TRAFFIC_KINDS: Record<string, (n: number) => Partial<TrafficSummary>> = {
  'entries read': (n) => ({ entries: n }),
  'exchanges judged': (n) => ({ judged: n }),
  'entries left alone': (n) => ({ other: n }),
  // As the judge writes them: the first bodies and entries listed, the rest counted (here, past the console's ten).
  'response bodies not kept': (n) => ({ missing: n === 0 ? ({} as Record<string, number>) : { 'response body': 10 + n }, dropped: times(n === 0 ? 0 : 10, (i) => ({ exchange: i, body: 'response body', reason: 'not in the capture' })) }),
  'entries not read': (n) => (n === 0 ? {} : { invalid: { entries: 10 + n, listed: times(10, (i) => ({ file: '/captures/a.har', entry: i, reason: 'response.status is not an integer (found null)' })) } }),
  'entries not read, none past the first': (n) => (n === 0 ? {} : { invalid: { entries: n, listed: times(n, (i) => ({ file: '/captures/a.har', entry: i, reason: 'response.status is not an integer (found null)' })) } }),
  'captures cut short': (n) => ({ truncated: [{ file: '/captures/a.har', entries: n, reason: 'ends before its JSON does' }] }),
  'header fields repaired': (n) => ({ repaired: n === 0 ? ({} as Record<string, number>) : { 'a header field without a value, read as empty': n } }),
};

/** A judged check's captured exchanges, n of them failing. */
const trafficCheck = (failures: number): CheckResult => ({
  ...check('judged', 'must', 1, failures > 0 ? 'failed' : 'passed'),
  requests: 0,
  traffic: { exchanges: 2, failures, alone: true },
});

function report(checks: CheckResult[], traffic?: TrafficSummary): Report {
  const record: RunRecord = {
    settings: traffic ? { ...settings, targetKind: 'traffic', profile: 'read-only' } : settings,
    startedAt: new Date(0),
    durationMs: 1,
    checks: [BASELINE, ...checks],
    exchanges: [],
    created: [],
    runErrors: [],
    ...(traffic ? { traffic } : {}),
  };
  return buildReport(record);
}

/** The lines of a text that hold a count (a number of 0 to 9 beside a word), trimmed. */
const countLines = (text: string) =>
  text
    .split('\n')
    .map((line) => line.trim())
    .filter((line) => /(^|[^\w.#§-])\d\s+[a-z]|\b(tests|failures|skipped|errors)="\d"/i.test(line));

/** Each renderer's words, as a user reads them: report.html's text without its markup. */
const RENDERERS: Record<string, (report: Report) => string> = {
  console: (r) => new ConsoleFormat(false, false).summary(r),
  'summary.md': renderSummary,
  'report.html': (r) =>
    renderHtml(r)
      .replace(/<style[\s\S]*?<\/style>|<script[\s\S]*?<\/script>/g, '')
      .replace(/<[^>]+>/g, '\n'),
  'junit.xml': (r) => (renderJunit(r).match(/<testsuites?\b[^>]*>/g) ?? []).join('\n'),
};

function counted(what: string, build: (n: number) => Report): string {
  const blocks: string[] = [];
  for (const n of [0, 1, 2]) {
    const rendered = build(n);
    for (const [name, render] of Object.entries(RENDERERS)) blocks.push(`## ${what}: ${n} — ${name}\n${[...new Set(countLines(render(rendered)))].join('\n')}`);
  }
  return blocks.join('\n\n');
}

describe('every count at 0, 1 and 2, in every renderer', () => {
  test.each(Object.keys(CHECK_KINDS))('%s', async (what) => {
    await expect(counted(what, (n) => report(CHECK_KINDS[what]!(n)))).toMatchFileSnapshot(`__snapshots__/counts/${what.replaceAll(' ', '-').replace(/,/g, '')}.txt`);
  });

  test.each(Object.keys(TRAFFIC_KINDS))('traffic: %s', async (what) => {
    const untested = { ...check('unjudged', 'must', 1, 'skipped'), reason: NOT_IN_TRAFFIC, requests: 0 };
    await expect(counted(what, (n) => report([trafficCheck(0), untested], { ...TRAFFIC, ...TRAFFIC_KINDS[what]!(n) }))).toMatchFileSnapshot(`__snapshots__/counts/traffic-${what.replaceAll(' ', '-')}.txt`);
  });

  test('traffic: captured exchanges of a check that broke its rule', async () => {
    await expect(counted('failing exchanges', (n) => report([trafficCheck(n)], TRAFFIC))).toMatchFileSnapshot('__snapshots__/counts/traffic-failing-exchanges.txt');
  });
});
