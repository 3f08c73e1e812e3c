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
import { fileURLToPath } from 'node:url';
import { afterAll, beforeAll, describe, expect, test } from 'vitest';
import { parse as parseYaml, parseAllDocuments } from 'yaml';
import { startReferenceServer, type ReferenceServer } from '../../src/reference/server.js';
import { startNamedFront, type NamedFront } from '../support/named-front.js';

const ROOT = fileURLToPath(new URL('../../', import.meta.url));
const KEY = 'Gate-Key_0123456789abcdefXYZ';

interface Step {
  id?: string;
  run?: string;
  env?: Record<string, string>;
}

/** The action's inputs with their defaults (action.yml), as the runner gives them to a step. */
async function actionSteps(): Promise<{ steps: Step[]; defaults: Record<string, string> }> {
  const action = parseYaml(await readFile(join(ROOT, 'action.yml'), 'utf8')) as { inputs: Record<string, { default?: string }>; runs: { steps: Step[] } };
  return { steps: action.runs.steps, defaults: Object.fromEntries(Object.entries(action.inputs).map(([name, input]) => [name, input.default ?? ''])) };
}

interface Ended {
  code: number;
  stdout: string;
  stderr: string;
  outputs: Record<string, string>;
  summary: string;
}

/** Runs the action's run step under `bash -e`, as a runner does, with `inputs` over the action's defaults (and `extraEnv` in the runner's environment). */
async function runStep(inputs: Record<string, string>, extraEnv: Record<string, string> = {}): Promise<Ended> {
  const { steps, defaults } = await actionSteps();
  const step = steps.find((candidate) => candidate.id === 'run')!;
  const dir = await mkdtemp(join(tmpdir(), 'pcs-gate-'));
  try {
    const given: Record<string, string> = { ...defaults, 'report-dir': join(dir, 'reports'), ...inputs };
    // ${{ inputs.NAME }} as the runner fills it; the Node the first step found: this one.
    const env = Object.fromEntries(
      Object.entries(step.env!).map(([name, value]) => [name, /steps\.node\.outputs\.path/.test(value) ? process.execPath : given[/inputs\.([\w-]+)/.exec(value)![1]!]!]),
    );
    const { PETSTORE_API_KEY: _none, ...base } = process.env;
    const files = { GITHUB_OUTPUT: join(dir, 'output'), GITHUB_STEP_SUMMARY: join(dir, 'summary') };
    const ended = await new Promise<{ code: number; stdout: string; stderr: string }>((resolve) =>
      execFile('bash', ['-e', '-c', step.run!], { env: { ...base, ...extraEnv, ...env, ...files, GITHUB_ACTIONS: 'true', GITHUB_ACTION_PATH: ROOT, NO_COLOR: '1' } }, (error, stdout, stderr) =>
        resolve({ code: error ? Number(error.code) : 0, stdout, stderr }),
      ),
    );
    const output = await readFile(files.GITHUB_OUTPUT, 'utf8').catch(() => '');
    const outputs = Object.fromEntries(output.split('\n').filter(Boolean).map((line) => line.split(/=(.*)/s).slice(0, 2) as [string, string]));
    return { ...ended, outputs, summary: await readFile(files.GITHUB_STEP_SUMMARY, 'utf8').catch(() => '') };
  } finally {
    await rm(dir, { recursive: true, force: true });
  }
}

/**
 * Runs the GitLab component's gate as its job does: the job's variables from `inputs` over
 * the component's defaults (`$[[ inputs.NAME ]]` filled in), then its last script line,
 * the gate, under bash, with the key in the variable the component names.
 */
async function runComponent(inputs: Record<string, string>, extraEnv: Record<string, string> = {}): Promise<Omit<Ended, 'outputs' | 'summary'>> {
  const [spec, job] = parseAllDocuments(await readFile(join(ROOT, 'templates/petstore-conformance/template.yml'), 'utf8')).map((doc) => doc.toJS()) as [
    { spec: { inputs: Record<string, { default?: unknown }> } },
    Record<string, { variables: Record<string, string>; script: string[] }>,
  ];
  const given: Record<string, string> = { ...Object.fromEntries(Object.entries(spec.spec.inputs).map(([name, input]) => [name, String(input.default ?? '')])), ...inputs };
  const { variables, script } = job['petstore-conformance']!;
  const dir = await mkdtemp(join(tmpdir(), 'pcs-component-'));
  try {
    const env = Object.fromEntries(Object.entries(variables).map(([name, value]) => [name, String(value).replace(/\$\[\[ inputs\.([\w-]+) \]\]/g, (_all, input: string) => given[input]!)]));
    const { PETSTORE_API_KEY: _none, ...base } = process.env;
    const gate = script.at(-1)!.replace('/tmp/petstore-conformance', ROOT);
    return await new Promise((resolve) =>
      execFile('bash', ['-e', '-c', gate], { cwd: dir, env: { ...base, ...extraEnv, ...env, NO_COLOR: '1' } }, (error, stdout, stderr) => resolve({ code: error ? Number(error.code) : 0, stdout, stderr })),
    );
  } finally {
    await rm(dir, { recursive: true, force: true });
  }
}

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

  test('near miss: args that are not words (an operator) are a usage error, never run by a shell', async () => {
    const ended = await runStep({ 'base-url': server.baseUrl, 'api-key': KEY, args: '--seed 3; touch /tmp/pcs-gate-injected' });
    expect(ended.code).toBe(2);
    expect(ended.stderr).toMatch(/^::error title=Gate input::args holds the operator ;/);
  });
});

/**
 * The gate requires what it gates: each combination of profile given or not and target
 * local or remote (the reference server reached as staging.example.test through a CONNECT
 * front, so the tool takes it for a target off loopback), in the action and the component.
 */
describe('the gate requires every must check unless the step names read-only itself', () => {
  let front: NamedFront;
  beforeAll(async () => {
    front = await startNamedFront(server.baseUrl);
  });
  afterAll(() => front.close());
  const remote = () => ({ inputs: { 'base-url': front.baseUrl }, env: { HTTP_PROXY: front.proxyUrl }, args: '--allow-insecure-http --seed 5' });
  const local = () => ({ inputs: { 'base-url': server.baseUrl }, env: {}, args: '--seed 5' });
  const READ_ONLY_NOTICE = /^read-only: (\d+) of (\d+) must checks assessed; creates not tested$/;

  test('GitHub, remote, no profile (read-only by default): the step fails, naming the default and how to choose', async () => {
    const target = remote();
    const ended = await runStep({ ...target.inputs, 'api-key': KEY, args: target.args }, target.env);
    expect(ended.code).toBe(3);
    expect(ended.stderr).toMatch(/^::error title=Not assessable::the target could not be assessed \(exit 3\): the profile was read-only by default, as for every target not on loopback \(--profile full runs the creates; --profile read-only, written, gates on reads alone\); \d+ of \d+ must checks ran; --min-must-checks all asks for every must check of the suite: not run /m);
    // The header, unwrapped: the default named before any check runs.
    expect(ended.stdout.split('\n  through the proxy')[0]!.replace(/\s+/g, ' ')).toMatch(/^petstore-conformance [\d.]+: checking http:\/\/staging\.example\.test:\d+\/v1, profile read-only \(the default for a target not on loopback\), seed 5$/);
    expect(ended.outputs).toMatchObject({ 'exit-code': '3', verdict: 'error' });
  }, 120_000);

  test('GitHub, remote, profile: read-only written: the step passes, and one notice and the job summary say what was left out', async () => {
    const target = remote();
    const ended = await runStep({ ...target.inputs, 'api-key': KEY, profile: 'read-only', args: target.args }, target.env);
    expect(ended.code).toBe(0);
    const notices = ended.stderr.split('\n').filter((line) => line.startsWith('::notice'));
    expect(notices).toHaveLength(1);
    const [, message] = /^::notice title=Read-only::(.*)$/.exec(notices[0]!)!;
    const [, ran, must] = READ_ONLY_NOTICE.exec(message!)!;
    expect(Number(ran)).toBeLessThan(Number(must));
    expect(ended.summary).toContain(`> **${message}**`);
    expect(ended.outputs).toMatchObject({ 'exit-code': '0', verdict: 'conformant' });
  }, 120_000);

  test('GitHub, remote, profile: full: every must check, so the key kept out of URLs fails it closed; --allow-key-in-url passes', async () => {
    const target = remote();
    const kept = await runStep({ ...target.inputs, 'api-key': KEY, profile: 'full', args: target.args }, target.env);
    expect(kept.code).toBe(3);
    expect(kept.stderr).toMatch(/not run auth-key-in-query \(would write the key into the target's access logs; --allow-key-in-url runs it\)/);
    const allowed = await runStep({ ...target.inputs, 'api-key': KEY, profile: 'full', args: `${target.args} --allow-key-in-url` }, target.env);
    expect(allowed.code).toBe(0);
    expect(allowed.stderr).not.toMatch(/^::notice/m);
  }, 120_000);

  test('GitHub, local, no profile (full by default): every must check, passes with no notice', async () => {
    const target = local();
    const ended = await runStep({ ...target.inputs, 'api-key': KEY, args: target.args });
    expect(ended.code).toBe(0);
    expect(ended.stderr).toBe('');
  }, 120_000);

  test('GitHub, local, profile: read-only: passes with the notice', async () => {
    const target = local();
    const ended = await runStep({ ...target.inputs, 'api-key': KEY, profile: 'read-only', args: target.args });
    expect(ended.code).toBe(0);
    expect(ended.stderr).toMatch(/^::notice title=Read-only::read-only: \d+ of \d+ must checks assessed; creates not tested$/m);
  }, 120_000);

  test('GitLab component at its defaults, remote: the job fails, naming the read-only default; read-only written: passes with the notice', async () => {
    const target = remote();
    const env = { ...target.env, PETSTORE_API_KEY: KEY };
    const unnamed = await runComponent({ ...target.inputs, args: target.args }, env);
    expect(unnamed.code).toBe(3);
    expect(unnamed.stderr).toMatch(/^petstore-conformance gate: error: the target could not be assessed \(exit 3\): the profile was read-only by default/m);
    const named = await runComponent({ ...target.inputs, profile: 'read-only', args: target.args }, env);
    expect(named.code).toBe(0);
    expect(named.stderr).toMatch(/^petstore-conformance gate: notice: read-only: \d+ of \d+ must checks assessed; creates not tested$/m);
  }, 120_000);

  test('GitLab component, local, at its defaults: every must check, passes', async () => {
    const target = local();
    const ended = await runComponent({ ...target.inputs, args: target.args }, { PETSTORE_API_KEY: KEY });
    expect(ended.code).toBe(0);
  }, 120_000);
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
