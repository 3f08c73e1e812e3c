import { setMaxListeners } from 'node:events';
import { join } from 'node:path';
import { byName, type Shard } from '../config/shard.js';
import { SETTINGS, type FleetSettingName, type SettingValues } from '../config/settings.js';
import { UsageError } from '../core/errors.js';
import { HeapPacer } from '../core/heap-pacer.js';
import { toolVersion } from '../core/package-info.js';
import { fleetLine, fleetReport, fleetTarget, writeFleetReports, type FleetReport, type FleetTarget } from '../report/fleet.js';
import type { Report } from '../report/model.js';
import { writtenLines } from '../report/report-dir.js';
import { runLane, withDeadline } from './lane.js';
import { given } from './given.js';
import type { RunOptions } from './options.js';
import { TargetRun } from './target-run.js';

/** One target of a fleet: its run options, and its name (unique: its report folder's name). */
export interface FleetMember extends Omit<RunOptions, 'reportDir' | 'out' | 'signal' | 'reportStream' | 'linkLatest' | 'quiet' | 'verbose'> {
  targetName: string;
}

/** How a fleet runs, beyond each target's own options. */
export interface FleetOptions extends Omit<Pick<SettingValues, FleetSettingName>, 'shard'> {
  /** Where fleet.json, summary.md, junit.xml and one folder per target go; absent (or `null`) writes nothing. */
  reportDir?: string | null;
  /** Aborts the fleet (e.g. on SIGINT): every target's report is still written. */
  signal?: AbortSignal;
  /** One line per target as it finishes, then the fleet's; `null` prints nothing. */
  out?: NodeJS.WritableStream | null;
  /** The slice this run checks (`--shard k/n`, parsed), recorded in fleet.json (the CLI selects the members). */
  shard?: Shard;
}

/** The result of a fleet run. */
export interface FleetOutcome {
  fleet: FleetReport;
  /** The fleet's worst outcome (see fleetExitCode). */
  exitCode: number;
  /** The fleet files written (fleet.json, summary.md, junit.xml). */
  written: string[];
  /** Every target's report, by name (its exchanges are in its folder's HAR). */
  reports: Map<string, Report>;
}

/**
 * Checks several targets in one process and writes a fleet report beside their own. The
 * targets are dealt, sorted by name, into `targetConcurrency` lanes; each lane checks its
 * targets one after another in one suite worker (see lane.ts), so the worker's start is
 * paid once per lane and each further target costs about its requests. Budgets, keys and
 * report folders stay per target; the deadline is the fleet's. Every target's reports
 * redact every target's key.
 * @throws UsageError for two members of one name, or any member's bad options (before any
 *   request); Error when a report folder cannot be written.
 */
export async function runFleet(members: readonly FleetMember[], asGiven: FleetOptions): Promise<FleetOutcome> {
  const options = given(asGiven);
  const names = members.map((member) => member.targetName);
  const twice = names.find((name, i) => names.indexOf(name) !== i);
  if (twice !== undefined) throw new UsageError(`the fleet names the target ${twice} twice`);
  for (const name of names) {
    const unsafe = unsafeFolderName(name ?? '');
    if (unsafe) throw new UsageError(`the fleet target ${JSON.stringify(name)} cannot name its report folder: ${unsafe}`);
  }
  const startedAt = new Date();
  const print = (text: string) => options.out?.write(`${text}\n`);
  const keys = members.flatMap((member) => (member.apiKey ? [{ value: member.apiKey, shown: `<the key of ${member.targetName}>` }] : []));
  const sorted = [...members].sort((a, b) => byName(a.targetName, b.targetName));
  const runs: TargetRun[] = [];
  try {
    // One after another: the first bad option is reported before any request.
    for (const member of sorted) {
      const run: RunOptions = {
        ...member,
        ...(options.deadlineSeconds ? { deadlineSeconds: options.deadlineSeconds } : {}),
        // Each target's report.json is what `merge` reads.
        formats: [...new Set(['json' as const, ...(member.formats ?? SETTINGS.formats.default)])],
        ...(options.reportDir === undefined ? {} : { reportDir: join(options.reportDir, member.targetName) }),
        out: null,
      };
      runs.push(await TargetRun.prepare(run, startedAt, keys.filter((key) => key.value !== member.apiKey)));
    }
    // Each target's checks find their state in the worker by run id: two targets sharing one would mix their records.
    const ids = runs.map((run) => run.settings.runId);
    const clash = ids.findIndex((id, i) => ids.indexOf(id) !== i);
    if (clash >= 0) throw new UsageError(`the targets ${runs[ids.indexOf(ids[clash]!)]!.settings.targetName} and ${runs[clash]!.settings.targetName} derive the same run id from seed ${runs[clash]!.settings.seed}: choose another --seed`);
    const laneCount = Math.min(options.targetConcurrency ?? SETTINGS.targetConcurrency.default, runs.length);
    const lanes = Array.from({ length: laneCount }, (_, lane) => runs.filter((_, i) => i % laneCount === lane));
    const deadlineAt = options.deadlineSeconds ? startedAt.getTime() + options.deadlineSeconds * 1000 : undefined;
    const stop = withDeadline(options.signal, deadlineAt, options.deadlineSeconds);
    // Every target's probe and lane listens to the one stop: 50 targets are not a leak.
    if (stop) setMaxListeners(0, stop);
    print(`petstore-conformance ${toolVersion}: checking ${runs.length} targets, ${laneCount} at once${options.shard ? ` (shard ${options.shard.index}/${options.shard.count})` : ''}`);

    // Only the reports are kept: the exchanges of 50 targets would weigh on memory, and each target's HAR holds them.
    const reports = new Map<string, Report>();
    const targets: FleetTarget[] = [];
    // V8 collects lazily: without pacing, the garbage of finished targets piles up (1.5 GB at 50 targets).
    const heap = new HeapPacer();
    await Promise.all(
      lanes.map((lane) =>
        runLane(lane, stop, (run, outcome) => {
          const name = run.settings.targetName!;
          const target = fleetTarget(name, outcome.report, outcome.exitCode, options.reportDir === undefined ? null : name);
          reports.set(name, outcome.report);
          targets.push(target);
          print(fleetLine(target));
          heap.pace();
        }, false),
      ),
    );
    const fleet = fleetReport(targets, startedAt.toISOString(), Date.now() - startedAt.getTime(), options.shard);
    const written = options.reportDir === undefined ? [] : await writeFleetReports(options.reportDir, fleet, reports);
    print([`Fleet: exit ${fleet.exitCode}`, ...writtenLines(written)].join('\n'));
    return { fleet, exitCode: fleet.exitCode, written, reports };
  } finally {
    await Promise.all(runs.map((run) => run.close()));
  }
}

/** Names Windows reserves for devices, with or without an extension (CON, NUL.txt, COM1 …). */
const RESERVED_NAME = /^(con|prn|aux|nul|com[0-9¹²³]|lpt[0-9¹²³])(\..*)?$/i;

/**
 * Why a target name cannot be its report folder's name, or undefined when it can: a name
 * must stay one path segment inside `--report-dir` on every common file system (`..`
 * would write outside it, `.` over the fleet's own files).
 */
export function unsafeFolderName(name: string): string | undefined {
  if (name === '' || name === '.' || name === '..') return 'it is empty, . or ..';
  if (/[/\\]/.test(name)) return 'it holds a path separator';
  // eslint-disable-next-line no-control-regex
  if (/[\u0000-\u001f\u007f<>:"|?*]/.test(name)) return 'it holds a control character or one of < > : " | ? * (reserved on Windows)';
  if (/[. ]$/.test(name)) return 'it ends with a dot or a space (dropped on Windows)';
  if (RESERVED_NAME.test(name)) return 'it is a device name reserved on Windows';
  if (Buffer.byteLength(name) > 200) return 'it is over 200 bytes';
  return undefined;
}
