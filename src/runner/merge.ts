import { join, relative, sep } from 'node:path';
import { readInput } from '../config/read-input.js';
import { UsageError } from '../core/errors.js';
import { fleetLine, fleetReport, fleetTarget, writeFleetReports, type FleetReport, type FleetTarget } from '../report/fleet.js';
import { exitCodeOf } from '../report/gate.js';
import { REPORT_VERSION, type Report } from '../report/model.js';
import { writtenLines } from '../report/report-dir.js';
import { exitCodeFor } from '../report/verdict.js';
import { violations } from '../schema/validators.js';

/** The result of a merge. */
export interface MergeOutcome {
  fleet: FleetReport;
  exitCode: number;
  written: string[];
}

/**
 * Joins the fleet reports of several runs (the shards of one fleet, each from its own CI
 * job) into one: fleet.json, summary.md and junit.xml in `out`, whose report folders point
 * at the targets' folders where they are (relative to `out`). Nothing is sent.
 * @param dirs the folders of the parts, each holding a fleet.json and its targets' folders.
 * @throws UsageError when a part has no readable fleet.json or a target's report.json is
 *   missing, or when two parts report the same target (exit 2: shards overlap).
 */
export async function mergeFleets(dirs: readonly string[], out: string, print: (line: string) => void = () => {}): Promise<MergeOutcome> {
  const targets: FleetTarget[] = [];
  const reports = new Map<string, Report>();
  const from = new Map<string, string>();
  let startedAt: string | undefined;
  let durationMs = 0;
  for (const dir of dirs) {
    const part = await readJson<FleetReport>(join(dir, 'fleet.json'), 'fleet report');
    const problems = violations('Fleet', part);
    if (problems.length > 0) throw new UsageError(`${join(dir, 'fleet.json')} is not a fleet report (schemas/fleet.schema.json): ${problems[0]}`);
    startedAt = startedAt === undefined || part.startedAt < startedAt ? part.startedAt : startedAt;
    durationMs = Math.max(durationMs, part.durationMs);
    for (const target of part.targets) {
      const earlier = from.get(target.name);
      if (earlier !== undefined) throw new UsageError(`the target ${target.name} is reported by both ${earlier} and ${dir}: the shards overlap`);
      from.set(target.name, dir);
      const folder = target.reportDir === null ? null : join(dir, target.reportDir);
      if (folder === null) {
        // No report to read: the outcome is the verdict's, never the exit code the part claims.
        targets.push({ ...target, exitCode: exitCodeFor(target.verdict) });
        continue;
      }
      const report = await readReport(join(folder, 'report.json'));
      reports.set(target.name, report);
      // Each target's outcome is recomputed from its own report.
      targets.push({ ...fleetTarget(target.name, report, exitCodeOf(report.verdict, report.gate), null), reportDir: relative(out, folder).split(sep).join('/') || '.' });
    }
  }
  const fleet = fleetReport(targets, startedAt ?? new Date().toISOString(), durationMs);
  const written = await writeFleetReports(out, fleet, reports);
  for (const target of fleet.targets) print(fleetLine(target));
  print([`Fleet: exit ${fleet.exitCode}`, ...writtenLines(written)].join('\n'));
  return { fleet, exitCode: fleet.exitCode, written };
}

/**
 * A target's report.json, of a version this tool reads (1.x, as schemas/report.schema.json).
 * @throws UsageError naming the file and the version found, or its first schema violation.
 */
async function readReport(path: string): Promise<Report> {
  const report = await readJson<Report>(path, 'report');
  const version = (report as { reportVersion?: unknown } | null)?.reportVersion;
  if (typeof version !== 'string' || !/^1\.\d+$/.test(version)) {
    throw new UsageError(`${path} is a report of version ${JSON.stringify(version ?? null)}; this tool merges reports of version 1.x (it writes ${REPORT_VERSION})`);
  }
  const problems = violations('Report', report);
  if (problems.length > 0) throw new UsageError(`${path} is not a report (schemas/report.schema.json): ${problems[0]}`);
  return report;
}

/**
 * Largest report.json or fleet.json merged, in bytes (256 MiB): what this tool's own runs
 * write, far past 1 MiB for a failing target (each failure keeps its exchange), and still
 * within what one JavaScript string holds; not the 1 MiB of a key or a configuration.
 */
export const MAX_REPORT_BYTES = 256 * 1024 * 1024;

/** A JSON file's value, or a UsageError naming the file. */
async function readJson<T>(path: string, what: string): Promise<T> {
  const text = await readInput(path, `the ${what}`, MAX_REPORT_BYTES);
  try {
    return JSON.parse(text) as T;
  } catch (error) {
    throw new UsageError(`${path} is not JSON: ${(error as Error).message}`);
  }
}
