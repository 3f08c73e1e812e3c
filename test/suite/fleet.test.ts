/**
 * Fleets: six targets in one run (four correct reference variants, two faulty), the same
 * fleet in two shards joined by `merge`, and the fleet's exit code as its worst outcome.
 */
import { readdir, readFile, mkdtemp } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, expect, test } from 'vitest';
import { shardOf } from '../../src/config/shard.js';
import { packageRoot } from '../../src/core/package-info.js';
import { startReferenceServer, type ReferenceServer } from '../../src/reference/server.js';
import { fleetExitCode, type FleetReport } from '../../src/report/fleet.js';
import { runFleet, type FleetMember } from '../../src/runner/fleet.js';
import { mergeFleets } from '../../src/runner/merge.js';
import { violations } from '../../src/schema/validators.js';
import createAnswers200 from '../faults/create-answers-200.js';
import idsAsStrings from '../faults/ids-as-strings.js';
import extraFields from '../variants/extra-fields.js';
import newestFirst from '../variants/newest-first.js';
import prettyPrinted from '../variants/pretty-printed-json.js';
import { delayedBy, MATRIX_SEED } from '../support/targets.js';
import { junitSchemaErrors } from '../support/xml.js';
import { serveProcess } from '../../scripts/bench-serve.js';

/**
 * A guard against a hang, not a bound on speed, for the tests that run whole fleets: with
 * three slow tiers at once, the two shards and the fleet they are compared with took past
 * the default 60 s.
 */
const FLEET_GUARD_MS = 600_000;

/** The six targets: name → variation (none: the reference server itself). */
const SHAPES = {
  'eu-west': [],
  'us-east': [extraFields.variation],
  'ap-south': [newestFirst.variation],
  'sa-east': [prettyPrinted.variation],
  'tenant-200': [createAnswers200.variation],
  'tenant-strings': [idsAsStrings.variation],
} as const;
const FAULTY = ['tenant-200', 'tenant-strings'];

const servers = new Map<string, ReferenceServer>();
beforeAll(async () => {
  // Each target with a key of its own, so that a key leaking into another target's report would show.
  for (const [name, variations] of Object.entries(SHAPES)) {
    servers.set(name, await startReferenceServer({ variations: [...variations], apiKey: `key-of-${name}-${'k'.repeat(24)}` }));
  }
});
afterAll(async () => {
  await Promise.all([...servers.values()].map((server) => server.close()));
});

/** The fleet's members, or the named ones; a fixed seed and fewer property runs keep the runs comparable and short. */
const members = (names: readonly string[] = [...servers.keys()]): FleetMember[] =>
  names.map((name) => ({ targetName: name, baseUrl: servers.get(name)!.baseUrl, apiKey: servers.get(name)!.apiKey, seed: MATRIX_SEED, numRuns: 5 }));

/** What must agree between two fleet reports of the same targets: everything but times, paths and run ids. */
const comparable = (fleet: FleetReport) =>
  fleet.targets.map(({ name, verdict, exitCode, headline, summary }) => ({ name, verdict, exitCode, headline, must: summary.byLevel.must }));

test('a six-target fleet: right verdicts, exit 1, reports per target, and no key in another target\'s files', async () => {
  const dir = await mkdtemp(join(tmpdir(), 'pcs-fleet-'));
  const outcome = await runFleet(members(), { reportDir: dir, targetConcurrency: 2 });
  const verdicts = Object.fromEntries(outcome.fleet.targets.map((target) => [target.name, target.verdict]));
  for (const name of Object.keys(SHAPES)) expect(verdicts[name]).toBe(FAULTY.includes(name) ? 'nonconformant' : 'conformant');
  expect(outcome.exitCode).toBe(1);
  expect(outcome.fleet.targets.map((target) => target.name)).toEqual(Object.keys(SHAPES).sort());
  expect((await readdir(dir)).sort()).toEqual([...Object.keys(SHAPES), 'fleet.json', 'junit.xml', 'summary.md'].sort());

  expect(violations('Fleet', JSON.parse(await readFile(join(dir, 'fleet.json'), 'utf8')))).toEqual([]);
  // One testsuite per target, named by it, valid JUnit.
  const junit = await readFile(join(dir, 'junit.xml'), 'utf8');
  expect(await junitSchemaErrors(junit)).toEqual([]);
  expect([...junit.matchAll(/<testsuite name="([^"]+)"/g)].map((match) => match[1]).sort()).toEqual(Object.keys(SHAPES).sort());
  const summary = await readFile(join(dir, 'summary.md'), 'utf8');
  expect(summary).toContain('**Exit 1**: 2 nonconformant, 0 not assessable, 4 conformant.');

  const fleetFiles = await Promise.all(['fleet.json', 'junit.xml', 'summary.md'].map((file) => readFile(join(dir, file), 'utf8')));
  for (const server of servers.values()) for (const text of fleetFiles) expect(text).not.toContain(server.apiKey);
  for (const name of Object.keys(SHAPES)) {
    const files = await readdir(join(dir, name));
    const texts = await Promise.all(files.map((file) => readFile(join(dir, name, file), 'utf8')));
    for (const [other, server] of servers) if (other !== name) for (const text of texts) expect(text).not.toContain(server.apiKey);
  }
}, FLEET_GUARD_MS);

test('two shards merged equal the unsharded fleet; a target reported twice is exit 2', async () => {
  const names = [...servers.keys()];
  const whole = await runFleet(members(), { reportDir: null, targetConcurrency: 3 });
  const dirs = await Promise.all([1, 2].map(() => mkdtemp(join(tmpdir(), 'pcs-shard-'))));
  for (const [i, dir] of dirs.entries()) {
    const shard = { index: i + 1, count: 2 };
    await runFleet(members(shardOf(names, shard)), { reportDir: dir, shard });
  }
  const out = await mkdtemp(join(tmpdir(), 'pcs-merged-'));
  const merged = await mergeFleets(dirs, out);
  expect(comparable(merged.fleet)).toEqual(comparable(whole.fleet));
  expect(merged.exitCode).toBe(whole.exitCode);
  // The merged summary links each target's own report where its shard wrote it.
  const fleetJson = JSON.parse(await readFile(join(out, 'fleet.json'), 'utf8')) as FleetReport;
  for (const target of fleetJson.targets) expect(await readFile(join(out, target.reportDir!, 'report.json'), 'utf8')).toContain(target.baseUrl);

  await expect(mergeFleets([dirs[0]!, dirs[0]!], await mkdtemp(join(tmpdir(), 'pcs-merged-')))).rejects.toThrow(/reported by both .* the shards overlap/);
}, FLEET_GUARD_MS);

test('in one lane, an unreachable target is judged by its probe alone and the next target is judged in full: exit 3', async () => {
  // A port that was just free: nothing listens there.
  const gone = await startReferenceServer();
  await gone.close();
  const dir = await mkdtemp(join(tmpdir(), 'pcs-fleet-'));
  const outcome = await runFleet(
    [{ targetName: 'a-gone', baseUrl: gone.baseUrl, apiKey: 'k'.repeat(32) }, ...members(['eu-west'])],
    { reportDir: dir, targetConcurrency: 1 },
  );
  expect(outcome.fleet.targets.map(({ name, verdict, exitCode }) => [name, verdict, exitCode])).toEqual([
    ['a-gone', 'error', 3],
    ['eu-west', 'conformant', 0],
  ]);
  expect(outcome.exitCode).toBe(3);
  expect(outcome.reports.get('eu-west')!.checks.filter((check) => check.status === 'passed').length).toBeGreaterThan(40);
  expect(await readFile(join(dir, 'junit.xml'), 'utf8')).toMatch(/<testcase name="assessable" classname="petstore_conformance\.a-gone"[^>]*>\s*<error message="the target is unreachable: CONNECTION_REFUSED/);
});

test('--deadline is the whole fleet\'s: no request of any target starts after it', async () => {
  const slow = await Promise.all([0, 1].map(() => startReferenceServer({ variations: [delayedBy(150)] })));
  try {
    const dir = await mkdtemp(join(tmpdir(), 'pcs-fleet-'));
    const outcome = await runFleet(
      slow.map((server, i) => ({ targetName: `slow-${i}`, baseUrl: server.baseUrl, apiKey: server.apiKey, formats: ['har' as const] })),
      { reportDir: dir, targetConcurrency: 1, deadlineSeconds: 1 },
    );
    expect(outcome.exitCode).toBe(3);
    // An exchange's startedAt is taken just after its admission: 100 ms of slack for a busy loop.
    // A request the run stopped before it went out is recorded when it was given up: on a
    // loaded machine a preflight may come after the deadline, and is not sent.
    const deadline = Date.parse(outcome.fleet.startedAt) + 1000 + 100;
    for (const name of ['slow-0', 'slow-1']) {
      expect(outcome.reports.get(name)!.verdictReason).toBe("the run was aborted: the run's deadline of 1 s was reached");
      const har = JSON.parse(await readFile(join(dir, name, 'exchanges.har'), 'utf8')) as { log: { entries: Array<{ startedDateTime: string; comment: string }> } };
      const sent = har.log.entries.filter((entry) => !/: no response: ABANDONED: not sent/.test(entry.comment));
      expect(sent.filter((entry) => Date.parse(entry.startedDateTime) >= deadline)).toEqual([]);
    }
  } finally {
    await Promise.all(slow.map((server) => server.close()));
  }
});

test('the fleet exit code is its worst outcome: nonconformant, then not assessable, then conformant', () => {
  expect(fleetExitCode([0, 3, 1, 0])).toBe(1);
  expect(fleetExitCode([0, 3, 0])).toBe(3);
  expect(fleetExitCode([0, 0])).toBe(0);
  expect(fleetExitCode([])).toBe(0);
});

test('shards cover every target exactly once, sizes within one of each other', () => {
  for (let targets = 0; targets <= 13; targets++) {
    const names = Array.from({ length: targets }, (_, i) => `t${String(i).padStart(2, '0')}`).reverse();
    for (let count = 1; count <= 7; count++) {
      const slices = Array.from({ length: count }, (_, i) => shardOf(names, { index: i + 1, count }));
      expect(slices.flat()).toEqual([...names].sort());
      const sizes = slices.map((slice) => slice.length);
      expect(Math.max(...sizes) - Math.min(...sizes)).toBeLessThanOrEqual(1);
    }
  }
});

test('two fleets at once against targets holding 2,000 categories each: no target that answers is recorded as TIMEOUT', async () => {
  const apiKey = 'fleet-load-key-0123456789abcdef';
  // Each target in a process of its own, as a real one is: served from this thread, their
  // answers waited behind the two fleets' own collecting and reporting, and with three slow
  // tiers at once, correct targets were recorded as TIMEOUT (the harness, not the tool).
  const servers = await Promise.all(Array.from({ length: 4 }, () => serveProcess([join(packageRoot, 'dist/scripts/serve-sized.js'), '2000'], apiKey)));
  try {
    const fleet = () => servers.map((server, i): FleetMember => ({ targetName: `t${i}`, baseUrl: server.baseUrl, apiKey, seed: MATRIX_SEED + i }));
    for (let round = 0; round < 2; round++) {
      const outcomes = await Promise.all([runFleet(fleet(), { reportDir: null, targetConcurrency: 2 }), runFleet(fleet(), { reportDir: null, targetConcurrency: 2 })]);
      for (const outcome of outcomes) {
        const timedOut = [...outcome.reports.values()].flatMap((report) => report.checks.filter((check) => check.failure?.error?.code === 'TIMEOUT').map((check) => check.id));
        expect(timedOut).toEqual([]);
        expect(outcome.fleet.exitCode).toBe(0);
      }
    }
  } finally {
    await Promise.all(servers.map((server) => server.stop()));
  }
}, FLEET_GUARD_MS);
