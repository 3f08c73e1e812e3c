import { mkdir } from 'node:fs/promises';
import { writeWhole } from './write.js';
import { join } from 'node:path';
import { byName } from '../config/shard.js';
import { toolVersion } from '../core/package-info.js';
import { renderFleetJunit } from './junit.js';
import type { Report, Verdict } from './model.js';
import { heading, link, markdown, paragraph, table, text } from './markdown.js';
import { EXIT } from './verdict.js';
import { visible } from './visible.js';

/** One target of a fleet, as fleet.json lists it. */
export interface FleetTarget {
  /** The target's name in the configuration file. */
  name: string;
  baseUrl: string;
  verdict: Verdict;
  headline: string;
  /** The target's own exit code (0, 1 or 3), its known failures applied. */
  exitCode: number;
  /** The target's report folder, relative to the fleet's (POSIX separators); null when it wrote none. */
  reportDir: string | null;
  /** report.json's `summary`: checks by level and status, requests. */
  summary: Report['summary'];
}

/** fleet.json: the targets of one fleet run, or of several merged (`merge`). */
export interface FleetReport {
  fleetVersion: '1.0';
  tool: { name: 'petstore-conformance'; version: string };
  startedAt: string;
  /** Wall time of the fleet run, in ms (merged: the longest part's). */
  durationMs: number;
  /** The fleet's outcome: see {@link fleetExitCode}. */
  exitCode: number;
  /** The slice of the selected targets this run checked (`--shard k/n`); absent: all of them. */
  shard?: { index: number; count: number };
  /** Every target, sorted by name. */
  targets: FleetTarget[];
}

/**
 * The fleet's exit code: its worst outcome, nonconformant (1) before not assessable (3)
 * before conformant (0). A gate must fail on a server that deviates even when another
 * could not be reached; 3 alone (nothing deviates, something was not assessed) stays the
 * warning it is for one target. An empty fleet (an empty shard) is 0.
 */
export function fleetExitCode(codes: readonly number[]): number {
  for (const code of [EXIT.nonconformant, EXIT.error]) if (codes.includes(code)) return code;
  return EXIT.conformant;
}

/** fleet.json of the targets given (sorted by name here). */
export function fleetReport(targets: readonly FleetTarget[], startedAt: string, durationMs: number, shard?: FleetReport['shard']): FleetReport {
  const sorted = [...targets].sort((a, b) => byName(a.name, b.name));
  return {
    fleetVersion: '1.0',
    tool: { name: 'petstore-conformance', version: toolVersion },
    startedAt,
    durationMs: Math.round(durationMs),
    exitCode: fleetExitCode(sorted.map((target) => target.exitCode)),
    ...(shard ? { shard } : {}),
    targets: sorted,
  };
}

/** One target's line of fleet.json, from its report. */
export function fleetTarget(name: string, report: Report, exitCode: number, reportDir: string | null): FleetTarget {
  return { name, baseUrl: report.target.baseUrl, verdict: report.verdict, headline: report.headline, exitCode, reportDir, summary: report.summary };
}

/** summary.md of a fleet: one row per target, the worst first, for a CI job summary. */
export function renderFleetSummary(fleet: FleetReport): string {
  const order = [EXIT.nonconformant, EXIT.error, EXIT.conformant];
  const rows = [...fleet.targets].sort((a, b) => order.indexOf(a.exitCode as 0) - order.indexOf(b.exitCode as 0));
  const counts = order.map((code) => fleet.targets.filter((target) => target.exitCode === code).length);
  return markdown([
    heading(2, text(`Pet Store conformance: fleet of ${fleet.targets.length} target${fleet.targets.length === 1 ? '' : 's'}${fleet.shard ? ` (shard ${fleet.shard.index}/${fleet.shard.count})` : ''}`)),
    paragraph({ type: 'strong', children: [text(`Exit ${fleet.exitCode}`)] }, text(`: ${counts[0]} nonconformant, ${counts[1]} not assessable, ${counts[2]} conformant.`)),
    table(
      ['Target', 'Verdict', 'Must passed', 'Must failed', 'Exit', 'Report'],
      rows.map((target) => {
        const must = target.summary.byLevel.must;
        return [target.name, target.headline, must.passed, must.failed, target.exitCode, target.reportDir === null ? '' : link(target.reportDir, encodeURI(`${target.reportDir}/summary.md`))];
      }),
      [null, null, 'right', 'right', 'right', null],
    ),
  ]);
}

/** The files a fleet's folder holds beside its targets' folders. */
export const FLEET_FILES = { json: 'fleet.json', md: 'summary.md', junit: 'junit.xml' } as const;

/**
 * Writes fleet.json, summary.md and junit.xml (one testsuite per target) to `dir`.
 * @param reports every target's report, by name, for the JUnit file.
 * @returns the paths written.
 * @throws the file system error when `dir` cannot be written.
 */
export async function writeFleetReports(dir: string, fleet: FleetReport, reports: ReadonlyMap<string, Report>): Promise<string[]> {
  await mkdir(dir, { recursive: true });
  const junit = renderFleetJunit(
    fleet.targets.flatMap((target) => (reports.has(target.name) ? [{ name: target.name, report: reports.get(target.name)! }] : [])),
    fleet.durationMs,
  );
  const files: Array<[string, string]> = [
    [FLEET_FILES.json, `${JSON.stringify(fleet, null, 2)}\n`],
    [FLEET_FILES.md, renderFleetSummary(fleet)],
    [FLEET_FILES.junit, junit],
  ];
  return Promise.all(
    files.map(async ([file, text]) => {
      await writeWhole(join(dir, file), text);
      return join(dir, file);
    }),
  );
}

const MARKS: Record<number, string> = { [EXIT.conformant]: '✓', [EXIT.nonconformant]: '✗', [EXIT.error]: '!' };

/** A fleet's console line for one finished target: its mark, name, headline and exit code. */
export function fleetLine({ name, headline, exitCode }: Pick<FleetTarget, 'name' | 'headline' | 'exitCode'>): string {
  // A headline read back by merge comes from a file: its control characters never reach the terminal.
  return `  ${MARKS[exitCode] ?? '?'} ${visible(name)}: ${visible(headline)} (exit ${exitCode})`;
}
