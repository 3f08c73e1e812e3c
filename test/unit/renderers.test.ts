/**
 * Every renderer as a pure function of a report, pinned by snapshots (as vitest pins its
 * own reporters): a conformant run; a nonconformant one with should and info findings; a
 * --strict one; a not-assessable one; one with hostile bytes; a judged capture. A changed count, a dropped
 * escape or a reordered failure shows as a snapshot diff. Update with `npx vitest run -u`
 * after reading the diff.
 */
import { describe, expect, test } from 'vitest';
import { withDefaults, type RunSettings } from '../../src/config/settings.js';
import type { Exchange } from '../../src/core/exchange.js';
import { buildReport } from '../../src/report/build.js';
import { ConsoleFormat } from '../../src/report/console.js';
import { renderHar } from '../../src/report/har.js';
import { renderHtml } from '../../src/report/html.js';
import { renderJunit } from '../../src/report/junit.js';
import type { CheckResult, Report } from '../../src/report/model.js';
import { renderSummary } from '../../src/report/summary-md.js';
import { answered, unanswered } from '../support/exchanges.js';
import { NOT_IN_TRAFFIC } from '../../src/check/reasons.js';
import { visible } from '../../src/report/visible.js';
import { bannerOf, coverageShortfall, noCheckRan } from '../../src/report/verdict.js';
import { toString } from 'mdast-util-to-string';
import { markupKinds, parseGfm, references, tableRows } from '../support/markdown.js';

const settings: RunSettings = { ...withDefaults({}), baseUrl: 'http://127.0.0.1:9/v1', apiKey: 'k', targetKind: 'external', seed: 7, runId: 'fixture', userAgent: 'x', profile: 'full', profileSource: 'default' };

/** A check of the fixture, passed unless `failure` is given. */
function check(id: string, level: CheckResult['level'], clause: string, failure?: { message: string; exchange: Exchange }): CheckResult {
  const result: CheckResult = { id, title: `the ${id} check`, clause, level, requirements: [], status: failure ? 'failed' : 'passed', durationMs: 12, requests: 1 };
  if (failure) result.failure = { message: failure.message, expected: 'status 201', found: `status ${failure.exchange.response?.status}`, request: failure.exchange.request, ...(failure.exchange.response ? { response: failure.exchange.response } : {}) };
  return result;
}

const post = (status: number, body: unknown) => answered(status, body, { method: 'POST', requestBody: { name: 'Cats' }, seq: 2 });
const HOSTILE = 'bad\u0000 \u001b[31mred\u001b[0m <h1>x</h1> a|b **bold** &amp; \ud800 \ufffe "quoted" ]]>';

function fixture(kind: 'conformant' | 'findings' | 'strict' | 'not-assessable' | 'hostile' | 'traffic' | 'partial-traffic'): { report: Report; exchanges: Exchange[] } {
  if (kind === 'traffic' || kind === 'partial-traffic') return trafficFixture(kind === 'traffic');
  // Which connection carried it: HAR 1.2's `connection`.
  const list = { ...answered(200, [{ id: 1, name: 'Cats' }], { seq: 1 }), connectionId: '1.1' };
  const checks = [check('list-answers-200-array', 'must', '4.1'), check('create-answers-201', 'must', '4.2')];
  const exchanges: Exchange[] = [list, post(201, { id: 2, name: 'Cats' })];
  if (kind === 'findings' || kind === 'strict') {
    const bom = answered(200, '\ufeff[]', { seq: 3 });
    checks.push(check('json-without-byte-order-mark', 'should', '4', { message: 'Expected no byte order mark', exchange: bom }));
    checks.push(check('unauthorized-invalid-token', 'info', '5', { message: 'Expected error="invalid_token"', exchange: answered(401, { code: 'u', message: 'no', status: 401 }, { seq: 4 }) }));
    if (kind === 'findings') {
      const wrong = post(200, { id: 3, name: 'Cats' });
      checks[1] = check('create-answers-201', 'must', '4.2', { message: 'Expected status 201, received 200', exchange: wrong });
      // Issue 36's blemishes: an info cause failing more checks than a must cause (listed after it);
      // a 201 that was right with a body that was not (its status not shown as the deviation);
      // a property failed by a coverage input (no fast-check path, no run, no shrink).
      const challenge = answered(401, { code: 'u', message: 'no', status: 401 }, { seq: 5 });
      checks.push(check('unauthorized-has-scope', 'info', '5', { message: 'Expected a scope', exchange: challenge }));
      checks.push(check('unauthorized-has-realm', 'info', '5', { message: 'Expected a realm', exchange: challenge }));
      const noId = post(201, { name: 'Cats' });
      const bodyWrong = check('create-name-only', 'must', '4.2/R1', { message: 'Expected a Category, received a body without id', exchange: noId });
      checks.push({ ...bodyWrong, failure: { ...bodyWrong.failure!, expected: 'a Category', found: 'a body without id' } });
      const coverage = check('create-valid-bodies', 'must', '4.2/R1', { message: 'Expected status 201, received 500', exchange: post(500, { code: 'x', message: 'boom', status: 500 }) });
      checks.push({ ...coverage, property: { seed: 42, numRuns: 0, numShrinks: 0, coverage: 12, counterexample: 'an empty description: {"name":"a","description":""}' } });
    }
  }
  if (kind === 'hostile') {
    const echo = post(400, { code: HOSTILE, message: HOSTILE, status: 400 });
    checks[1] = check('create-answers-201', 'must', '4.2', { message: `Expected status 201, received 400: ${HOSTILE}`, exchange: echo });
    exchanges.push(echo);
  }
  const unreachable = kind === 'not-assessable';
  const report = buildReport({
    settings: { ...settings, strict: kind === 'strict' },
    startedAt: new Date(0),
    durationMs: 1234,
    checks: unreachable ? [] : checks,
    exchanges: unreachable ? [] : exchanges,
    created: unreachable ? [] : [{ id: '2', name: 'Cats', checkId: 'create-answers-201' }],
    runErrors: [],
    ...(unreachable ? { preflight: unanswered('CONNECTION_REFUSED', { checkId: 'preflight', seq: 0 }) } : {}),
  });
  return { report, exchanges: unreachable ? [] : exchanges };
}

/**
 * A judged capture (judge, proxy): nothing sent, one rule broken by one of three exchanges
 * (or, `broken` false, none: a conformant verdict on part of the interface), one never
 * exercised, one body not kept.
 */
function trafficFixture(broken: boolean): { report: Report; exchanges: Exchange[] } {
  const created = broken
    ? check('create-valid-bodies', 'must', '4.2/R1', { message: '1 of 3 captured exchanges broke the rule; first, exchange #2: Expected status 201, received 400', exchange: post(400, { code: 'bad', message: 'no', status: 400 }) })
    : check('create-valid-bodies', 'must', '4.2/R1');
  const checks: CheckResult[] = [
    { ...check('list-answers-200-array', 'must', '4.1'), requests: 0, durationMs: 0, traffic: { exchanges: 5, failures: 0, alone: true } },
    { ...created, requests: 0, durationMs: 0, traffic: { exchanges: 3, failures: broken ? 1 : 0, alone: true } },
    { ...check('create-listed', 'must', '4.1/R1'), status: 'skipped', reason: NOT_IN_TRAFFIC, requests: 0, durationMs: 0 },
  ];
  const report = buildReport({
    settings: { ...settings, targetKind: 'traffic', profile: 'read-only' },
    startedAt: new Date(0),
    durationMs: 1234,
    checks,
    exchanges: [],
    created: [],
    runErrors: [],
    traffic: { files: ['/captures/browser.har'], entries: 12, judged: 8, other: 4, missing: { 'response body': 1 }, dropped: [{ exchange: 7, body: 'response body', reason: 'cut short: 57 of 114 bytes kept' }] },
  });
  return { report, exchanges: [] };
}

const KINDS = ['conformant', 'findings', 'strict', 'not-assessable', 'hostile', 'traffic', 'partial-traffic'] as const;

describe.each(KINDS)('a %s run', (kind) => {
  const { report, exchanges } = fixture(kind);

  test('junit.xml', async () => {
    await expect(renderJunit(report)).toMatchFileSnapshot(`__snapshots__/renderers/${kind}.junit.xml`);
  });

  test('summary.md', async () => {
    await expect(renderSummary(report)).toMatchFileSnapshot(`__snapshots__/renderers/${kind}.summary.md`);
  });

  test('report.html', async () => {
    await expect(renderHtml(report)).toMatchFileSnapshot(`__snapshots__/renderers/${kind}.report.html`);
  });

  test('exchanges.har', async () => {
    await expect(renderHar(report, exchanges)).toMatchFileSnapshot(`__snapshots__/renderers/${kind}.exchanges.har`);
  });

  test('the console summary and check lines', async () => {
    const format = new ConsoleFormat(false, report.settings.strict ?? false);
    const lines = [...report.checks.map((c) => format.check(c)), format.summary(report)].filter((line) => line !== undefined).join('\n');
    await expect(lines).toMatchFileSnapshot(`__snapshots__/renderers/${kind}.console.txt`);
  });
});

test('summary.md read back as GitHub reads it shows the server text as it is: no markup, no entity left literal (issue 25: `&#x27;` showed)', () => {
  const { report } = fixture('hostile');
  const tree = parseGfm(renderSummary(report));
  expect(markupKinds(tree)).toEqual([]);
  const row = tableRows(tree).find((cells) => cells[0] === 'create-answers-201')!;
  expect(row).toHaveLength(4);
  expect(row[3]).toBe(`Expected status 201, received 400: ${visible(HOSTILE)}`);
  const apostrophe = renderSummary({ ...report, verdictReason: "the server's answer #1 & <b>" });
  expect(parseGfm(apostrophe).children.map((node) => toString(node).replaceAll('\u200d', ''))).toContain("the server's answer #1 & <b>");
});

test('summary.md is inert: no mention, issue or merge request reference, or autolink from server text, which reads as it was (issue 46)', () => {
  const { report } = fixture('hostile');
  const PINGS = '@octocat @everyone @org/team mail@example.com #12 !7 &3 GH-12 owner/repo#12 https://evil.example/x www.evil.example http://a.b';
  const inert = renderSummary({ ...report, verdictReason: PINGS, findings: report.findings.map((finding) => ({ ...finding, summary: `${finding.summary} ${PINGS}` })) });
  const tree = parseGfm(inert);
  expect(markupKinds(tree)).toEqual([]);
  expect(references(tree)).toEqual([]);
  expect(parseGfm(inert).children.map((node) => toString(node).replaceAll('\u200d', ''))).toContain(PINGS);
  // Near miss: the same text through the parser unneutralised is read as every one of them.
  const raw = parseGfm(PINGS);
  expect(markupKinds(raw).filter((kind) => kind === 'link')).toHaveLength(4);
  expect(references(raw)).toEqual(['mention: @octocat', 'mention: @everyone', 'mention: @org/team', 'reference: #12', 'reference: !7', 'reference: &3', 'reference: GH-12', 'reference: owner/repo#12']);
});

test('a partial conformant run headlines its coverage, naming what kept the rest out; a whole one does not', () => {
  const whole = fixture('conformant').report;
  expect(whole.headline).toBe('CONFORMANT');
  const skipped: CheckResult = { ...check('create-listed', 'must', '4.1/R1'), status: 'skipped', reason: 'not selected' };
  const partial = buildReport({ settings: { ...settings, checkFilter: '^list-' }, startedAt: new Date(0), durationMs: 1, checks: [...whole.checks, skipped], exchanges: [], created: [], runErrors: [] });
  expect(partial.coverage).toEqual({ must: 3, ran: 2, untested: 1 });
  expect(partial.headline).toBe('CONFORMANT within the checks selected (--checks ^list-): 2 of 3 must checks ran, 1 untested');
  const readOnly = (profileSource: 'explicit' | 'default') => buildReport({ settings: { ...settings, profile: 'read-only', profileSource }, startedAt: new Date(0), durationMs: 1, checks: [...whole.checks, skipped], exchanges: [], created: [], runErrors: [] });
  expect(readOnly('explicit').headline).toBe('CONFORMANT within the read-only profile: 2 of 3 must checks ran, 1 untested');
  // A profile taken by default says so: the creates go untested unless one is chosen.
  expect(readOnly('default').headline).toBe('CONFORMANT within the read-only profile (the default for a target not on loopback): 2 of 3 must checks ran, 1 untested');
});

test('the fixtures differ where they should: counts and verdicts', () => {
  const verdicts = KINDS.map((kind) => fixture(kind).report.verdict);
  expect(verdicts).toEqual(['conformant', 'nonconformant', 'nonconformant', 'error', 'nonconformant', 'nonconformant', 'conformant']);
  const junit = renderJunit(fixture('findings').report);
  // Three must failures; the should and the three info findings are skipped, not failures.
  expect(junit).toMatch(/<testsuites[^>]* failures="3"/);
  expect((junit.match(/<skipped /g) ?? []).length).toBe(4);
  expect(renderJunit(fixture('strict').report)).toMatch(/<testsuites[^>]* failures="1"/);
});

describe('a verdict on part of the interface is never green', () => {
  const coverage = (must: number, ran: number) => ({ must, ran, untested: must - ran });
  test.each([
    ['conformant, every must check run', 'conformant', coverage(3, 3), 'conformant'],
    ['near miss: conformant, one untested', 'conformant', coverage(3, 2), 'partial'],
    ['nonconformant, some untested: red all the same', 'nonconformant', coverage(3, 1), 'nonconformant'],
    ['not assessable', 'error', coverage(3, 0), 'error'],
  ] as const)('bannerOf: %s', (_d, verdict, cover, banner) => expect(bannerOf({ verdict, coverage: cover })).toBe(banner));

  test('the partial capture: amber in report.html, a yellow circle in summary.md, the checks it judged named in each', () => {
    const { report } = fixture('partial-traffic');
    expect(report.headline).toBe('CONFORMANT on what the capture shows: 2 of 3 must checks judged, 1 untested');
    expect(renderHtml(report)).toMatch(/<section class="verdict partial">/);
    expect(renderSummary(report)).toMatch(/^## 🟡 /m);
    for (const text of [renderHtml(report), renderSummary(report), new ConsoleFormat(false, false).summary(report)]) expect(text).toContain('Must checks judged (2 of 3): list-answers-200-array, create-valid-bodies');
  });

  test.each([
    ['no gate', undefined, undefined],
    ['the gate met exactly (2 of 2)', 2, undefined],
    ['near miss: one short', 3, 'only 2 must checks ran or were judged on the captured traffic, fewer than --min-must-checks 3: list-answers-200-array, create-valid-bodies'],
  ] as const)('coverageShortfall: %s', (_d, minimum, reason) => expect(coverageShortfall(fixture('partial-traffic').report.checks, minimum)).toBe(reason));

  test('a shortfall is not assessable; a must failure stays nonconformant whatever the coverage', () => {
    const base = { startedAt: new Date(0), durationMs: 1, exchanges: [], created: [], runErrors: [] };
    const { report } = fixture('partial-traffic');
    const short = buildReport({ ...base, settings: { ...settings, targetKind: 'traffic', minMustChecks: 3 }, checks: report.checks, traffic: report.traffic! });
    expect([short.verdict, short.verdictReason]).toEqual(['error', expect.stringMatching(/^only 2 must checks/)]);
    const failing = fixture('traffic').report;
    expect(buildReport({ ...base, settings: { ...settings, targetKind: 'traffic', minMustChecks: 3 }, checks: failing.checks, traffic: failing.traffic! }).verdict).toBe('nonconformant');
  });
});

test('a counterexample says where it came from: a coverage input (nothing generated, nothing shrunk), or a generated run with its path, runs and shrinks', () => {
  const { report } = fixture('findings');
  const property = (record: NonNullable<CheckResult['property']>) => {
    const checks = report.checks.map((check) => (check.id === 'create-valid-bodies' ? { ...check, property: record } : check));
    return /<div>(Counterexample[^<]*):<\/div>/.exec(renderHtml({ ...report, checks }))![1];
  };
  expect(property({ seed: 42, numRuns: 0, numShrinks: 0, counterexample: 'x' })).toBe('Counterexample: a coverage input, sent before any generated one (seed 42)');
  // Near miss: the first generated run failed (one run, a path).
  expect(property({ seed: 42, numRuns: 1, numShrinks: 3, path: '0:1', counterexample: 'x' })).toBe('Counterexample (seed 42, path 0:1, 1 run, 3 shrinks)');
});

test('the received status is shown as the deviation only when the HTTP status is what was found wrong', () => {
  const { report } = fixture('findings');
  const badge = (found: string | undefined) => {
    const checks = report.checks.map((check) => (check.id === 'create-name-only' ? { ...check, failure: { ...check.failure!, found } } : check));
    return /<code>create-name-only<\/code>[^\n]*received <span class="([^"]+)">/.exec(renderHtml({ ...report, checks: checks as CheckResult[] }))![1];
  };
  expect(badge('status 400')).toBe('status');
  expect(badge(undefined)).toBe('status'); // nothing said: the status may be it
  // Near misses: the Error body's status field, and a body, were wrong; the 201 was right.
  expect(badge('status field 200')).toBe('status as-expected');
  expect(badge('a body without id')).toBe('status as-expected');
});

describe('every class of character visible() escapes, each alone in server text, reaches no renderer raw (issue 47)', () => {
  /** One of each class, with its escape as written. */
  const CLASSES: Array<[string, string, string]> = [
    ['C0 (NUL)', '\u0000', '\\u0000'],
    ['C0 (ESC)', '\u001b', '\\u001b'],
    ['DEL', '\u007f', '\\u007f'],
    ['C1 (CSI)', '\u009b', '\\u009b'],
    ['C1 (APC, last)', '\u009f', '\\u009f'],
    ['noncharacter U+FDD0', '\ufdd0', '\\ufdd0'],
    ['noncharacter U+FDEF', '\ufdef', '\\ufdef'],
    ['noncharacter U+FFFE', '\ufffe', '\\ufffe'],
    ['noncharacter U+FFFF', '\uffff', '\\uffff'],
    ['noncharacter U+1FFFE', '\u{1fffe}', '\\u{1fffe}'],
    ['noncharacter U+10FFFF', '\u{10ffff}', '\\u{10ffff}'],
    ['lone high surrogate', '\ud800', '\\ud800'],
    ['lone low surrogate', '\udfff', '\\udfff'],
    ['bidi override U+202E', '\u202e', '\\u202e'],
    ['bidi isolate U+2066', '\u2066', '\\u2066'],
    ['bidi isolate end U+2069', '\u2069', '\\u2069'],
    ['right-to-left mark U+200F', '\u200f', '\\u200f'],
    ['Arabic letter mark U+061C', '\u061c', '\\u061c'],
  ];
  /** Near misses: each beside a class's edge, shown as it is. */
  const KEPT = ['\t', '\n', ' ', '\u00a0', '\ufdcf', '\ufdf0', '\ufffd', '\u{1fffd}', '\u{1f408}', '\u2065', '\u206a', '\u202f', '\u2029', 'é'];

  test.each(CLASSES)('%s: escaped by visible(), and in no report file or console line raw', (_name, character, shownAs) => {
    expect(visible(`a${character}b`)).toBe(`a${shownAs}b`);
    const { report } = fixture('hostile');
    const text = `server said a${character}b`;
    const failed = report.checks.map((c) => (c.failure ? { ...c, failure: { ...c.failure, message: text, found: text } } : c));
    const hostile = { ...report, checks: failed, verdictReason: text };
    const format = new ConsoleFormat(false, false);
    for (const [where, output] of [
      ['report.html', renderHtml(hostile)],
      ['summary.md', renderSummary(hostile)],
      ['junit.xml', renderJunit(hostile)],
      ['console', [...hostile.checks.map((c) => format.check(c)), format.summary(hostile)].join('\n')],
    ] as const) {
      expect(output.includes(character), `${where} holds it raw`).toBe(false);
      expect(output, where).toContain(`a${shownAs}b`);
    }
  });

  test('near misses: tab, line feed, space, U+00A0, U+FDCF, U+FDF0, U+FFFD, U+1FFFD, a surrogate pair, U+2065, U+206A, U+202F, U+2029 and é are shown as they are', () => {
    for (const character of KEPT) expect(visible(`a${character}b`)).toBe(`a${character}b`);
  });
});

/**
 * Every count a user reads, in each verdict state (conformant, nonconformant, not
 * assessable, read-only, partial), in summary.md and report.html: the counts are the
 * report's, and a run that reached no check reads `not run`, never `(0)`.
 */
describe('noCheckRan: whether a count of what ran reads `not run`', () => {
  const skipped = (id: string): CheckResult => ({ ...check(id, 'must', '4.1'), status: 'skipped', reason: 'not selected' });
  test.each([
    ['no check at all (a refused key)', [], true],
    ['every check skipped', [skipped('a'), skipped('b')], true],
    ['near miss: one passed among the skipped', [skipped('a'), check('b', 'must', '4.1')], false],
    ['near miss: one failed', [{ ...check('b', 'must', '4.1'), status: 'failed' as const }], false],
  ] as const)('%s: %s', (_what, checks, none) => expect(noCheckRan({ checks: [...checks] })).toBe(none));
});

describe('the counts of each verdict state, in each renderer', () => {
  const skippedWrite: CheckResult = { ...check('create-answers-201', 'must', '4.2'), status: 'skipped', reason: 'untested (profile read-only)', requests: 0 };
  const built = (overrides: Partial<RunSettings>, checks: CheckResult[]) => buildReport({ settings: { ...settings, ...overrides }, startedAt: new Date(0), durationMs: 1, checks, exchanges: [], created: [], runErrors: [] });
  const STATES: Array<[string, Report]> = [
    ['conformant', fixture('conformant').report],
    ['nonconformant', fixture('findings').report],
    ['not assessable (no check reached)', fixture('not-assessable').report],
    ['read-only', built({ profile: 'read-only', profileSource: 'explicit' }, [check('list-answers-200-array', 'must', '4.1'), skippedWrite])],
    ['partial (--checks)', built({ checkFilter: '^list-' }, [check('list-answers-200-array', 'must', '4.1'), { ...skippedWrite, reason: 'not selected' }])],
  ];

  test.each(STATES)('%s', (state, report) => {
    const html = renderHtml(report);
    const md = renderSummary(report);
    const heading = (id: string) => new RegExp(`<h2 id="${id}">([^<]*)</h2>`).exec(html)![1];
    if (report.checks.length === 0) {
      expect(state).toMatch(/not assessable/);
      expect([heading('root-causes'), heading('not-evaluated'), heading('checks')]).toEqual(['Root causes and failures: not run', 'Must checks not evaluated: not run', 'All checks: not run']);
      expect(html).not.toMatch(/\(0\)/);
      expect(md).toContain('Checks: not run (the run stopped before its checks).');
      expect(md).not.toMatch(/\| must +\| +0 /);
      return;
    }
    const errors = report.checks.filter((c) => c.level === 'must' && c.status === 'error').length;
    const failed = report.checks.filter((c) => c.status === 'failed').length;
    expect([heading('root-causes'), heading('not-evaluated'), heading('checks')]).toEqual([
      `Root causes (${report.findings.length}) and failures (${failed})`,
      `Must checks not evaluated (${errors})`,
      `All checks (${report.checks.length})`,
    ]);
    const rows = tableRows(parseGfm(md));
    const must = report.summary.byLevel.must;
    expect(rows.find((row) => row[0] === 'must')).toEqual(['must', String(must.passed), String(must.failed), String(must.error), String(must.skipped)]);
    expect(md).not.toContain('not run (the run stopped');
  });
});
