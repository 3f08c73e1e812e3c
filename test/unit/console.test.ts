/**
 * The console's own decisions (src/report/console.ts), each beside its near miss: a mark of
 * its own for each level; lines that fit the width; skipped checks folded by reason; a root
 * cause's evidence printed once; the failing JSON path marked; a Reproduce command that
 * sh reads back whole; where the reports went (report/report-dir.ts writtenLines).
 */
import { execFileSync } from 'node:child_process';
import { styleText } from 'node:util';
import stringWidth from 'string-width';
import { describe, expect, test } from 'vitest';
import { NOT_SELECTED } from '../../src/check/reasons.js';
import { withDefaults, type RunSettings } from '../../src/config/settings.js';
import { buildReport } from '../../src/report/build.js';
import { ConsoleFormat, fitted, markOf, PLAIN_WIDTH } from '../../src/report/console.js';
import { curlParts } from '../../src/report/curl.js';
import type { CheckResult } from '../../src/report/model.js';
import { pruneRuns, writtenLines } from '../../src/report/report-dir.js';
import { answered } from '../support/exchanges.js';

const LONG = 'a title long enough that no line of a hundred columns holds it beside the check id and its cost, twice over';
const settings: RunSettings = { ...withDefaults({}), baseUrl: 'http://127.0.0.1:9/v1', apiKey: 'k', targetKind: 'external', seed: 7, runId: 'console', userAgent: 'x', profile: 'full', profileSource: 'default' };

/** A check of `level` that failed on a create answered with a string id, or passed. */
function result(id: string, level: CheckResult['level'], failed = true, title = `the ${id} check`): CheckResult {
  const exchange = answered(201, { id: '1', name: 'Cats' }, { method: 'POST', requestBody: { name: 'Cats' } });
  return {
    id, title, clause: '4.2/R1', level, requirements: [], status: failed ? 'failed' : 'passed', durationMs: 3, requests: 1,
    ...(failed
      ? { failure: { message: 'Expected a Category, found: /id must be integer (found string)', expected: 'a Category', found: '/id must be integer (found string)', defect: 'a Category: /id must be integer (found string)', pointer: '/id', request: exchange.request, response: exchange.response! } }
      : {}),
  };
}

describe('markOf: each level a mark of its own, never must\'s red ✗', () => {
  test.each([
    [{ status: 'failed', level: 'must' }, '✗', 'red'],
    [{ status: 'failed', level: 'should' }, '!', 'yellow'],
    [{ status: 'failed', level: 'info' }, 'i', 'cyan'],
    [{ status: 'error', level: 'must' }, '?', 'yellow'],
    [{ status: 'passed', level: 'must' }, '✓', 'green'],
    [{ status: 'skipped', level: 'must' }, '-', 'gray'],
  ] as const)('%j: %s %s', (check, glyph, style) => expect(markOf(check)).toEqual({ glyph, style }));
});

describe('lines fit the width', () => {
  test('fitted: a text of the width is kept; one column more is cut, ending with …; wide characters count two', () => {
    expect(fitted('x'.repeat(10), 10)).toBe('x'.repeat(10));
    expect(fitted('x'.repeat(11), 10)).toBe(`${'x'.repeat(9)}…`);
    expect(fitted('猫'.repeat(5), 10)).toBe('猫'.repeat(5));
    expect(stringWidth(fitted('猫'.repeat(6), 10))).toBeLessThanOrEqual(10);
  });

  test.each([PLAIN_WIDTH, 80, 60])('at %i columns, every line of a failing run: check lines, evidence, root causes, verdict', (width) => {
    const format = new ConsoleFormat(false, false, width);
    const checks = [result('create-name-only', 'must', true, LONG), result('list-items-are-categories', 'must'), result('edge-empty-name', 'info')];
    const report = buildReport({ settings, startedAt: new Date(0), durationMs: 5, checks, exchanges: [], created: [], runErrors: [] });
    const text = [format.header(settings, '0.1.0'), ...checks.map((check) => format.check(check)), format.summary(report)].join('\n');
    const lines = text.split('\n');
    // The Reproduce command's parts are whole words: a part longer than a line may stand alone past it, none here.
    for (const line of lines) expect(stringWidth(line), line).toBeLessThanOrEqual(width);
    // The title is cut, never the cost after it.
    expect(text).toMatch(/create-name-only — a title lon.*… \(3 ms\)/);
  });
});

describe('the skipped checks fold into one line per reason', () => {
  test('two reasons, two lines; those a filter left out are not listed; none skipped, nothing', () => {
    const format = new ConsoleFormat(false);
    const skipped = (id: string, reason: string): CheckResult => ({ ...result(id, 'must', false), status: 'skipped', reason });
    expect(format.skipped([skipped('a', 'untested (profile read-only)'), skipped('b', 'untested (profile read-only)'), skipped('c', 'the list is empty'), skipped('d', NOT_SELECTED)])).toBe(
      '  - 2 checks skipped: untested (profile read-only)\n  - 1 check skipped: the list is empty',
    );
    expect(format.skipped([skipped('d', NOT_SELECTED), result('e', 'must', false)])).toBeUndefined();
    expect(format.check(skipped('a', 'untested (profile read-only)'))).toBeUndefined();
  });
});

describe('one root cause, its evidence once', () => {
  const format = new ConsoleFormat(false);
  test('the first check shows the evidence, the failing JSON path marked; a later one of the same cause names the first instead', () => {
    expect(format.check(result('create-name-only', 'must'))).toBe(
      [
        '  ✗ must   4.2/R1  create-name-only — the create-name-only check (3 ms)',
        '        Expected a Category, found: /id must be integer (found string)',
        '        POST /v1/categories → 201',
        '        body: {"id":"1","name":"Cats"}',
        '        at /id: "1"',
      ].join('\n'),
    );
    expect(format.check(result('create-unicode', 'must'), { sameAs: 'create-name-only' })).toBe(
      ['  ✗ must   4.2/R1  create-unicode — the create-unicode check (3 ms)', '        the same root cause as create-name-only: /id must be integer (found string)'].join('\n'),
    );
    // The run's first check line comes after a blank line (apart from the header).
    expect(format.check(result('create-name-only', 'must'), { first: true })).toMatch(/^\n {2}✗ must/);
  });

  test('near miss: a pointer at nothing in the body marks nothing', () => {
    const check = result('create-name-only', 'must');
    expect(format.check({ ...check, failure: { ...check.failure!, pointer: '/description' } })).not.toContain('at /description');
  });

  test('the summary shows each root cause once, with its checks under it and a Reproduce command sh reads whole', () => {
    const narrow = new ConsoleFormat(false, false, 60);
    const checks = [result('create-name-only', 'must'), result('create-unicode', 'must'), result('edge-empty-name', 'info')];
    const report = buildReport({ settings, startedAt: new Date(0), durationMs: 5, checks, exchanges: [], created: [], runErrors: [] });
    const summary = narrow.summary(report);
    expect(summary.match(/^ {2}F\d/gm)).toEqual(['  F1']);
    expect(summary).toContain('       3 checks: create-name-only, create-unicode,\n       edge-empty-name');
    const reproduce = /^ {7}Reproduce: ((?:.*\\\n)*.*)$/m.exec(summary)![1]!;
    expect(reproduce).toContain(' \\\n         ');
    // sh joins the continuation lines into the one command the report holds.
    const words = (command: string) => execFileSync('dash', ['-c', `set -- ${command.replace(/^curl /, '')}; printf '%s\\0' "$@"`], { encoding: 'utf8' }).split('\0');
    expect(words(reproduce)).toEqual(words(report.checks[0]!.failure!.curl!));
  });
});

describe('a Reproduce command broken to fit: each line as full as the width allows, none past it', () => {
  test.each([44, 45, 46, 60])('at %i columns, with many short parts', (width) => {
    const check = result('create-name-only', 'must');
    const headers = Object.fromEntries(['a', 'b', 'c', 'd', 'e', 'f', 'g', 'h'].map((name) => [`x-${name}`, '1']));
    const request = { ...check.failure!.request, headers: { ...check.failure!.request.headers, ...headers } };
    const report = buildReport({ settings, startedAt: new Date(0), durationMs: 5, checks: [{ ...check, failure: { ...check.failure!, request } }], exchanges: [], created: [], runErrors: [] });
    const lines = /^ {7}Reproduce: (?:.*\\\n)*.*$/m.exec(new ConsoleFormat(false, false, width).summary(report))![0].split('\n');
    const parts = curlParts(request);
    // Each line holds the next parts in order; a part longer than a line stands alone, past the width.
    let next = 0;
    for (const [i, line] of lines.entries()) {
      let rest = line.replace(/ \\$/, '').trimStart().replace(/^Reproduce: /, '');
      const first = next;
      while (next < parts.length && (rest === parts[next] || rest.startsWith(`${parts[next]} `))) rest = rest.slice(parts[next++]!.length + 1);
      expect(next, line).toBeGreaterThan(first);
      if (next - first > 1 || i === 0) expect(stringWidth(line), line).toBeLessThanOrEqual(width);
      // Full: the next part, its space and the continuation would not have fitted.
      if (next < parts.length) expect(stringWidth(line) - 2 + 1 + stringWidth(parts[next]!) + 2, `${line} / ${parts[next]}`).toBeGreaterThan(width);
    }
    expect(next).toBe(parts.length);
  });
});

describe('what a check found wraps to the width, and never narrower than 20 columns', () => {
  const wrapped = (width: number) => {
    const check = result('create-name-only', 'must');
    const lines = new ConsoleFormat(false, false, width).check({ ...check, failure: { ...check.failure!, message: 'x'.repeat(60) } })!.split('\n');
    return lines.filter((line) => /^ {8}x+$/.test(line)).map((line) => line.trim().length);
  };
  test.each([
    [40, [32, 28]],
    [29, [21, 21, 18]],
    [28, [20, 20, 20]],
    [20, [20, 20, 20]],
  ])('at %i columns, lines of %j', (width, lengths) => expect(wrapped(width)).toEqual(lengths));

  test('the first line\'s continuation too: indented 2, to the width, never narrower than 20 columns after the indent', () => {
    const widest = (width: number) => {
      const continued = new ConsoleFormat(false, false, width).header({ ...settings, baseUrl: `http://${'h'.repeat(60)}.example/v1` }, '0.1.0').split('\n').slice(1);
      for (const line of continued) expect(line.startsWith('  ')).toBe(true);
      return Math.max(...continued.map((line) => line.length - 2));
    };
    expect([widest(24), widest(22), widest(21)]).toEqual([22, 20, 20]);
  });
});

describe("a root cause's count is painted as its gravest check's level", () => {
  const painted = (levels: CheckResult['level'][]) => {
    const checks = levels.map((level, i) => result(`check-${i}`, level));
    const report = buildReport({ settings, startedAt: new Date(0), durationMs: 5, checks, exchanges: [], created: [], runErrors: [] });
    return new ConsoleFormat(true, false, 200).summary(report);
  };
  test.each([
    [['must'], 'red', '1 check'],
    [['info', 'must'], 'red', '2 checks'],
    [['info', 'should'], 'yellow', '2 checks'],
    [['info'], 'cyan', '1 check'],
  ] as const)('%j: %s', (levels, style, count) => {
    expect(painted([...levels])).toContain(styleText(style, count));
  });
});

describe('the verdict line is painted by the verdict: green conformant, red nonconformant, yellow anything else', () => {
  test.each([
    [false, 'green'],
    [true, 'red'],
  ] as const)('a must check failed: %s → %s', (failed, style) => {
    const report = buildReport({ settings, startedAt: new Date(0), durationMs: 5, checks: [result('create-name-only', 'must', failed)], exchanges: [], created: [], runErrors: [] });
    expect(new ConsoleFormat(true, false, 200).verdict(report)).toContain(styleText(['bold', style], report.headline));
  });
  test('a run error: yellow', () => {
    const report = buildReport({ settings, startedAt: new Date(0), durationMs: 5, checks: [result('create-name-only', 'must', false)], exchanges: [], created: [], runErrors: ['boom'] });
    expect(new ConsoleFormat(true, false, 200).verdict(report)).toContain(styleText(['bold', 'yellow'], report.headline));
  });
});

describe('the first line names the target', () => {
  test('the embedded reference server says so; near miss: an external target is its URL alone', () => {
    const format = new ConsoleFormat(false, false, 200);
    expect(format.header({ ...settings, targetKind: 'embedded' }, '0.1.0')).toBe('petstore-conformance 0.1.0: checking http://127.0.0.1:9/v1 (embedded reference server), profile full, seed 7');
    expect(format.header(settings, '0.1.0')).toBe('petstore-conformance 0.1.0: checking http://127.0.0.1:9/v1, profile full, seed 7');
  });
});

describe('a Reproduce command too long for a terminal (a large body)', () => {
  const format = new ConsoleFormat(false);
  /** A report whose one root cause was sent with a body of `size` characters, and its command's length as the console counts it. */
  const withBody = (size: number) => {
    const check = result('create-name-only', 'must');
    const request = { ...check.failure!.request, body: JSON.stringify({ name: 'x'.repeat(size) }) };
    const report = buildReport({ settings, startedAt: new Date(0), durationMs: 5, checks: [{ ...check, failure: { ...check.failure!, request } }], exchanges: [], created: [], runErrors: [] });
    return { summary: format.summary(report), length: curlParts(request).reduce((sum, part) => sum + part.length + 1, 0) };
  };
  const at = (length: number) => withBody(length - withBody(0).length);

  test('2,000 characters are shown as the command; 2,001 are said to be in the reports, at once for a body of megabytes', () => {
    expect(at(2000).length).toBe(2000);
    expect(at(2000).summary).toMatch(/Reproduce: curl /);
    expect(at(2001).summary).toContain('Reproduce: a command of 2001 characters (a large body): in report.html and report.json');
    // Issue 45's console measured every prefix of the line: a 1 MB body held a fleet's thread for 38 s.
    expect(withBody(1_000_000).summary).toMatch(/Reproduce: a command of \d+ characters/);
  });
});

describe('writtenLines: where the reports went', () => {
  test('one line per folder naming its files, then the page to open; nothing written, nothing said', () => {
    expect(writtenLines(['/r/1/report.json', '/r/1/report.html', '/r/1/summary.md'])).toEqual(['Reports: /r/1 (report.json, report.html, summary.md)', 'Open /r/1/report.html']);
    // Near miss: no report.html, no page to open.
    expect(writtenLines(['/r/1/report.json'])).toEqual(['Reports: /r/1 (report.json)']);
    expect(writtenLines(['/f/fleet.json', '/f/a/report.html'])).toEqual(['Reports: /f (fleet.json)', 'Reports: /f/a (report.html)', 'Open /f/a/report.html']);
    expect(writtenLines([])).toEqual([]);
  });
});

describe('pruneRuns: reports/ keeps the newest runs', () => {
  test('the oldest beyond keep go, by the time in their names (a same-second -2 after its first); near miss: exactly keep, none', async () => {
    const { mkdtemp, mkdir, readdir, writeFile } = await import('node:fs/promises');
    const { tmpdir } = await import('node:os');
    const { join } = await import('node:path');
    const parent = await mkdtemp(join(tmpdir(), 'pcs-prune-'));
    const runs = ['2026-01-01T00-00-00Z', '2026-01-01T00-00-00Z-2', '2026-01-01T00-00-01Z', '2026-02-01T00-00-00Z'];
    for (const name of runs) await mkdir(join(parent, name));
    // Look-alikes that are no run's folder: a file, a folder with more to its name.
    await writeFile(join(parent, '2025-01-01T00-00-00Z'), '');
    await mkdir(join(parent, '2025-01-01T00-00-00Z-old'));
    expect(await pruneRuns(parent, 4)).toEqual([]);
    expect(await pruneRuns(parent, 2)).toEqual(['2026-01-01T00-00-00Z', '2026-01-01T00-00-00Z-2']);
    expect((await readdir(parent)).sort()).toEqual(['2025-01-01T00-00-00Z', '2025-01-01T00-00-00Z-old', '2026-01-01T00-00-01Z', '2026-02-01T00-00-00Z']);
    expect(await pruneRuns(join(parent, 'absent'), 1)).toEqual([]);
  });
});
