/**
 * A fleet's own report (src/report/fleet.ts) without running one: the exit code's order,
 * fleet.json's order and rounding, summary.md's heading, counts and rows, the console
 * line. The slow tier runs fleets end to end.
 */
import { describe, expect, test } from 'vitest';
import { fleetExitCode, fleetLine, fleetReport, renderFleetSummary, type FleetTarget } from '../../src/report/fleet.js';
import { EXIT } from '../../src/report/verdict.js';

/** A fleet's target line with `passed` and `failed` must checks. */
function target(name: string, exitCode: number, must = { passed: 10, failed: exitCode === EXIT.nonconformant ? 1 : 0 }, reportDir: string | null = name): FleetTarget {
  return {
    name,
    baseUrl: `https://${name}.example/v1`,
    verdict: exitCode === EXIT.conformant ? 'conformant' : exitCode === EXIT.nonconformant ? 'nonconformant' : 'error',
    headline: `${name} headline`,
    exitCode,
    reportDir,
    summary: { byLevel: { must } } as FleetTarget['summary'],
  };
}

describe('the fleet’s exit code: the worst outcome', () => {
  test.each([
    [[0, 3, 1, 0], EXIT.nonconformant],
    [[1, 3], EXIT.nonconformant],
    [[3, 0], EXIT.error],
    [[0, 0], EXIT.conformant],
    [[], EXIT.conformant],
  ])('%j: %i', (codes, code) => expect(fleetExitCode(codes)).toBe(code));
});

describe('fleet.json', () => {
  test('targets by name, the duration in whole ms, the shard only when there is one', () => {
    const fleet = fleetReport([target('b', 0), target('a', 1)], '2026-11-26T00:00:00.000Z', 1234.5);
    expect(fleet.targets.map(({ name }) => name)).toEqual(['a', 'b']);
    expect(fleet).toMatchObject({ fleetVersion: '1.0', durationMs: 1235, exitCode: EXIT.nonconformant });
    expect(fleet).not.toHaveProperty('shard');
    expect(fleetReport([], 'x', 0, { index: 2, count: 3 }).shard).toEqual({ index: 2, count: 3 });
  });
});

describe('summary.md', () => {
  test.each([
    [1, 'fleet of 1 target\n'],
    [2, 'fleet of 2 targets\n'],
    [0, 'fleet of 0 targets\n'],
  ])('%i targets: the heading counts them, in the singular for one', (count, heading) => {
    const targets = Array.from({ length: count }, (_, i) => target(`t${i}`, 0));
    expect(renderFleetSummary(fleetReport(targets, 'x', 0))).toContain(`## Pet Store conformance: ${heading}`);
  });

  test('each outcome counted under its own word: 3 nonconformant, 2 not assessable, 1 conformant', () => {
    const fleet = fleetReport([target('a', 1), target('b', 1), target('c', 1), target('d', 3), target('e', 3), target('f', 0)], 'x', 0);
    expect(renderFleetSummary(fleet)).toContain('**Exit 1**: 3 nonconformant, 2 not assessable, 1 conformant.');
  });

  test('a shard says which; the counts by outcome; the worst rows first; a link to each target’s summary', () => {
    const fleet = fleetReport([target('calm', 0), target('down', 3, { passed: 0, failed: 0 }), target('wrong', 1, { passed: 9, failed: 2 }), target('quiet', 0, undefined, null)], 'x', 0, { index: 1, count: 2 });
    const md = renderFleetSummary(fleet);
    expect(md).toContain('## Pet Store conformance: fleet of 4 targets (shard 1/2)\n');
    expect(md).toContain('**Exit 1**: 1 nonconformant, 1 not assessable, 2 conformant.');
    const rows = md.split('\n').filter((line) => /^\| (calm|down|wrong|quiet) /.test(line));
    expect(rows.map((row) => row.split('|')[1]!.trim())).toEqual(['wrong', 'down', 'calm', 'quiet']);
    expect(rows[0]).toMatch(/^\| wrong +\| wrong headline +\| +9 \| +2 \| +1 \| \[wrong\]\(wrong\/summary\.md\) +\|$/);
    expect(rows[3]).toMatch(/\| +0 \| +\|$/);
  });
});

describe('the console line', () => {
  test.each([
    [EXIT.conformant, '✓'],
    [EXIT.nonconformant, '✗'],
    [EXIT.error, '!'],
    [2, '?'],
  ])('exit %i is marked %s', (exitCode, mark) => {
    expect(fleetLine({ name: 'prod', headline: 'CONFORMANT', exitCode })).toBe(`  ${mark} prod: CONFORMANT (exit ${exitCode})`);
  });

  test('control characters of a name or headline read back from a file never reach the terminal', () => {
    expect(fleetLine({ name: 'a\u001b[2Jb', headline: 'x\u0007', exitCode: 0 })).not.toMatch(/[\u0000-\u001f]/);
  });
});
