/**
 * The gate requires what it gates (issue 58): every combination of profile given or not and
 * target local or remote, in the action's step and the GitLab component's job. Each case is
 * a whole run, so the file is in the slow tier.
 */
import { afterAll, beforeAll, describe, expect, test } from 'vitest';
import { startReferenceServer, type ReferenceServer } from '../../src/reference/server.js';
import { KEY, runComponent, runStep } from '../support/ci-steps.js';
import { startNamedFront, type NamedFront } from '../support/named-front.js';

let server: ReferenceServer;
beforeAll(async () => {
  server = await startReferenceServer({ apiKey: KEY });
});
afterAll(() => server.close());

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
    expect(ended.code, ended.stderr + ended.stdout).toBe(0);
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

