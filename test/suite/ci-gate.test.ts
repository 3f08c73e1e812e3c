/**
 * The CI gates fail closed: the action's run step, run by bash as a runner runs it (its env
 * mapped from the inputs), against no target, an unreachable one, one that refuses the key
 * and a correct one; args with quotes reach the tool whole. And the CI examples: each
 * staging gate writes and asks for every must check to be judged.
 */
import { execFile } from 'node:child_process';
import { createServer } from 'node:net';
import { mkdtemp, readFile, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, test } from 'vitest';
import { parse as parseYaml } from 'yaml';
import { startReferenceServer, type ReferenceServer } from '../../src/reference/server.js';
import { actionSteps, KEY, ROOT, runStep } from '../support/ci-steps.js';

let server: ReferenceServer;
/** The X-Tenant header of each request the server received. */
const tenants: Array<string | undefined> = [];
beforeAll(async () => {
  server = await startReferenceServer({ apiKey: KEY, configure: (http) => void http.on('request', (req) => tenants.push(req.headers['x-tenant'] as string | undefined)) });
});
afterAll(() => server.close());

describe('the action\'s run step fails closed', () => {
  test('an empty base-url (an unset variable) is an error: exit 2, one line, nothing run', async () => {
    const ended = await runStep({});
    expect(ended.code).toBe(2);
    expect(ended.stderr).toBe("::error title=Gate input::base-url is empty: nothing to check (an unset variable?). Give the target's base URL, or self-test: true to check the tool on its embedded reference server\n");
    expect(ended.stdout).toBe('');
    expect(ended.outputs).toEqual({});
  });

  test('self-test: true checks the embedded server, and says so: exit 0, its outputs and job summary', async () => {
    const ended = await runStep({ 'self-test': 'true', args: '--seed 1' });
    expect(ended.code).toBe(0);
    expect(ended.outputs).toEqual({ 'exit-code': '0', verdict: 'conformant', 'artifact-name': 'conformance-self-test' });
    expect(ended.summary).toContain('SELF-TEST (embedded reference server): CONFORMANT');
  });

  test('an unreachable target fails the step (exit 3), the cause in its annotation', async () => {
    const closed = createServer();
    await new Promise<void>((resolve) => closed.listen(0, '127.0.0.1', resolve));
    const port = (closed.address() as { port: number }).port;
    await new Promise((resolve) => closed.close(resolve));
    const ended = await runStep({ 'base-url': `http://127.0.0.1:${port}/v1`, 'api-key': KEY });
    expect(ended.code).toBe(3);
    expect(ended.stderr).toMatch(/^::error title=Not assessable::the target could not be assessed \(exit 3\): the target is unreachable: CONNECTION_REFUSED/m);
    expect(ended.outputs).toMatchObject({ 'exit-code': '3', verdict: 'error', 'artifact-name': `conformance-127.0.0.1-${port}-v1` });
  });

  test('near miss: not-assessable-fails: false passes the step with a warning that names the cause', async () => {
    const ended = await runStep({ 'base-url': `${server.baseUrl.replace(/\/v1$/, '')}/v1`, 'api-key': 'not-the-key-0123456789', 'not-assessable-fails': 'false' });
    expect(ended.code).toBe(0);
    expect(ended.stderr).toMatch(/^::warning title=Not assessable::the target could not be assessed \(exit 3\): the target refuses the key \(401 with an Error body\).*\(not-assessable-fails: false\)$/m);
    expect(ended.outputs['exit-code']).toBe('3');
  });

  test('a key the target refuses fails the step (exit 3), and the console says so in a few lines', async () => {
    const ended = await runStep({ 'base-url': server.baseUrl, 'api-key': 'not-the-key-0123456789' });
    expect(ended.code).toBe(3);
    expect(ended.stderr).toMatch(/^::error title=Not assessable::.*the target refuses the key \(401 with an Error body\): check the environment variable PETSTORE_API_KEY/m);
    expect(ended.stdout.trimEnd().split('\n').length).toBeLessThanOrEqual(5);
    expect(ended.stdout).not.toMatch(/✗/);
  });

  test('a correct target, profile full, every must check judged: exit 0; args with quotes reach the tool whole', async () => {
    const before = tenants.length;
    const ended = await runStep({ 'base-url': server.baseUrl, 'api-key': KEY, profile: 'full', 'min-must-checks': 'all', args: `-H 'X-Tenant: blue team' --seed 3` });
    expect(ended.code).toBe(0);
    expect(ended.outputs).toMatchObject({ 'exit-code': '0', verdict: 'conformant' });
    const sent = tenants.slice(before);
    expect(sent.length).toBeGreaterThan(100);
    expect(new Set(sent)).toEqual(new Set(['blue team']));
  });

  test('used twice with one report folder, a second run that ends before its report says error, not the first run\'s verdict (issue 59)', async () => {
    const dir = await mkdtemp(join(tmpdir(), 'pcs-gate-twice-'));
    try {
      const first = await runStep({ 'self-test': 'true', args: '--seed 1', 'report-dir': dir });
      expect(first.outputs).toMatchObject({ 'exit-code': '0', verdict: 'conformant' });
      // A usage error of the tool: exit 2 before any report is written.
      const second = await runStep({ 'self-test': 'true', args: '--seed not-a-number', 'report-dir': dir });
      expect(second.code).toBe(2);
      expect(second.outputs).toMatchObject({ 'exit-code': '2', verdict: 'error' });
      expect(second.summary).toBe('');
    } finally {
      await rm(dir, { recursive: true, force: true });
    }
  });

  test('near miss: args that are not words (an operator) are a usage error, never run by a shell', async () => {
    const ended = await runStep({ 'base-url': server.baseUrl, 'api-key': KEY, args: '--seed 3; touch /tmp/pcs-gate-injected' });
    expect(ended.code).toBe(2);
    expect(ended.stderr).toMatch(/^::error title=Gate input::args holds the operator ;/);
  });
});

describe('the action', () => {
  test('leaves the caller\'s Node as it was: no setup-node; its steps run the Node it found by path', async () => {
    const text = await readFile(join(ROOT, 'action.yml'), 'utf8');
    expect(text).not.toMatch(/actions\/setup-node/);
    expect(text).not.toContain('GITHUB_PATH');
    const { steps } = await actionSteps();
    expect(steps.find((step) => step.id === 'run')!.run).toBe('"$NODE" "$GITHUB_ACTION_PATH/bin/ci-gate.js"');
  });

  test('the Node step takes the first Node new enough: the runner\'s, else the newest in the tool cache; none, an error', async () => {
    const { steps } = await actionSteps();
    const find = steps.find((step) => step.id === 'node')!.run!;
    const dir = await mkdtemp(join(tmpdir(), 'pcs-node-'));
    try {
      // Nodes that say their version (scripts), in a tool cache and on a PATH; the tools the step uses, without a node.
      const { mkdir, writeFile, chmod, symlink } = await import('node:fs/promises');
      const fake = async (folder: string, version: string) => {
        await mkdir(folder, { recursive: true });
        await writeFile(join(folder, 'node'), `#!/bin/sh\nexec "${process.execPath}" -e 'Object.defineProperty(process.versions, "node", { value: "${version}" }); eval(process.argv[1])' -- "$2"\n`);
        await chmod(join(folder, 'node'), 0o755);
        return join(folder, 'node');
      };
      const cached = (version: string) => fake(join(dir, 'cache', 'node', version, 'x64', 'bin'), version);
      const tools = join(dir, 'tools');
      await mkdir(tools);
      for (const tool of ['ls', 'sort', 'dirname']) await symlink(`/usr/bin/${tool}`, join(tools, tool));
      const found = async (path: string) => {
        await rm(join(dir, 'out'), { force: true });
        return new Promise<{ code: number; output: string }>((resolve) =>
          execFile('/bin/bash', ['-e', '-c', find], { env: { PATH: path, RUNNER_TOOL_CACHE: join(dir, 'cache'), GITHUB_OUTPUT: join(dir, 'out') } }, async (error, stdout) =>
            resolve({ code: error ? Number(error.code) : 0, output: (await readFile(join(dir, 'out'), 'utf8').catch(() => '')) || stdout }),
          ),
        );
      };
      // None at all: an error, the step fails.
      expect(await found(tools)).toEqual({ code: 2, output: "::error title=No Node::the suite needs Node 20.19 or later: none on PATH nor in the runner's tool cache\n" });
      // Only ones too old (20.18, one minor short): the same.
      await cached('18.20.0');
      await cached('20.18.9');
      expect((await found(tools)).code).toBe(2);
      // 20.19 in the cache: that one, the newest new enough, though an older sorts after it as text.
      const newer = await cached('20.19.1');
      expect(await found(tools)).toEqual({ code: 0, output: `path=${newer}\n` });
      // The runner's own, on PATH, new enough: first.
      const own = await fake(join(dir, 'own'), '22.1.0');
      expect(await found(`${join(dir, 'own')}:${tools}`)).toEqual({ code: 0, output: `path=${own}\n` });
      // Near miss: the runner's own too old: the cache's.
      const old = await fake(join(dir, 'old'), '20.18.0');
      expect(old).toMatch(/old\/node$/);
      expect(await found(`${join(dir, 'old')}:${tools}`)).toEqual({ code: 0, output: `path=${newer}\n` });
    } finally {
      await rm(dir, { recursive: true, force: true });
    }
  });
});

describe('the CI examples: every staging gate writes and asks for every must check; exit 3 fails', () => {
  const yaml = async (file: string) => parseYaml(await readFile(join(ROOT, file), 'utf8'));

  test('GitHub: the suite\'s own action at a ref, profile full, min-must-checks all, args quoted as shell words; JUnit published', async () => {
    const workflow = await yaml('examples/ci/github-actions.yml');
    const steps = workflow.jobs.conformance.steps as Array<Record<string, unknown> & { with?: Record<string, unknown> }>;
    const suite = steps.find((step) => /\/petstore-conformance@/.test(String(step.uses)))!;
    expect(String(suite.uses)).toMatch(/@[\w.-]+$/);
    expect(suite.with).toMatchObject({ 'api-key': '${{ secrets.PETSTORE_API_KEY }}', profile: 'full', 'min-must-checks': 'all' });
    expect(suite.with).not.toHaveProperty('not-assessable-fails');
    expect(String(suite.with?.args)).toContain("-H 'X-Tenant: blue'");
    expect(workflow.permissions.checks).toBe('write');
    expect(steps.find((step) => String(step.uses).startsWith('mikepenz/action-junit-report@'))?.with?.report_paths).toBe('${{ steps.conformance.outputs.report-dir }}/junit.xml');
  });

  test('this repository\'s own workflow asks for the self-test outright', async () => {
    const workflow = await yaml('.github/workflows/conformance.yml');
    const own = (Object.values(workflow.jobs) as Array<{ steps: Array<{ uses?: string; with?: Record<string, unknown> }> }>).flatMap((job) => job.steps).find((step) => step.uses === './')!;
    expect(own.with).toEqual({ 'self-test': true, 'min-must-checks': 'all' });
  });

  test('GitLab without the component: profile full and min-must-checks all; exit 3 not allowed to fail; JUnit and reports kept', async () => {
    const job = (await yaml('examples/ci/gitlab-ci.yml')).conformance;
    expect(job.script.join('\n')).toMatch(/petstore-conformance\.js run --base-url \S+ --profile full --min-must-checks all /);
    expect(job.variables.SUITE_REF).toMatch(/^[\w./-]+$/);
    expect(Number(/^node:(\d+)/.exec(job.image)?.[1])).toBeGreaterThanOrEqual(22);
    expect(job).not.toHaveProperty('allow_failure');
    expect(job.artifacts.reports.junit).toBe('reports/ci/junit.xml');
    expect(job.artifacts.when).toBe('always');
  });

  test('the component example: profile full, min-must-checks all', async () => {
    const example = await yaml('examples/ci/gitlab-ci-component.yml');
    expect(example.include[0].inputs).toMatchObject({ profile: 'full', 'min-must-checks': 'all' });
  });

  test('GitHub fleet: shards that each judge what their targets\' profiles reach, and a merge job that gates on the fleet (exit 3 fails)', async () => {
    const workflow = await yaml('examples/ci/github-actions-fleet.yml');
    const { shard, merge } = workflow.jobs;
    const shards = shard.strategy.matrix.shard as number[];
    expect(shard.strategy['fail-fast']).toBe(false);
    const check = (shard.steps as Array<{ run?: string }>).find((step) => /run --targets all/.test(String(step.run)))!;
    expect(check.run).toContain(`--shard "\${{ matrix.shard }}/${shards.length}" --min-must-checks profile`);
    expect(JSON.stringify(shard.steps)).toContain('conformance-shard-${{ matrix.shard }}');
    expect(merge.needs).toBe('shard');
    expect(merge.if).toBe('always()');
    const steps = merge.steps as Array<Record<string, unknown> & { with?: Record<string, unknown> }>;
    expect(steps.find((step) => String(step.uses).startsWith('actions/download-artifact@'))?.with?.pattern).toBe('conformance-shard-*');
    expect(String(steps.find((step) => String(step.run).includes(' merge '))?.run)).toBe('node petstore-conformance/bin/petstore-conformance.js merge reports/shards/* --report-dir reports/fleet');
    expect(steps.find((step) => String(step.uses).startsWith('mikepenz/action-junit-report@'))?.with?.report_paths).toBe('reports/fleet/junit.xml');
    expect(workflow.permissions.checks).toBe('write');
  });

  test('GitLab fleet: parallel: matrix shards, then a gate job that merges them; exit 3 fails it', async () => {
    const pipeline = await yaml('examples/ci/gitlab-ci-fleet.yml');
    const shard = pipeline['conformance-shard'];
    const indexes = shard.parallel.matrix[0].SHARD_INDEX as string[];
    expect(shard.script.join('\n')).toContain(`--shard "$SHARD_INDEX/${indexes.length}" --min-must-checks profile`);
    const gate = pipeline['conformance-gate'];
    expect(gate.needs).toEqual(['conformance-shard']);
    expect(gate.when).toBe('always');
    expect(gate.script.join('\n')).toMatch(/merge reports\/shard-\* --report-dir reports\/fleet/);
    expect(gate).not.toHaveProperty('allow_failure');
    expect(gate.artifacts.reports.junit).toBe('reports/fleet/junit.xml');
    expect(Number(/^node:(\d+)/.exec(pipeline['.suite'].image)?.[1])).toBeGreaterThanOrEqual(22);
  });
});
