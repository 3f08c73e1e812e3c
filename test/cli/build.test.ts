/**
 * Building never breaks the CLI of the checkout (scripts/build.mjs): in a copy of the
 * package, the CLI answers all through a build (dist/ is swapped in whole), and a build
 * that fails leaves dist/ as it was. Slow tier: a build is a few seconds of tsc and esbuild.
 */
import { execFile, spawn } from 'node:child_process';
import { cp, mkdtemp, readFile, rm, symlink, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { setTimeout as delay } from 'node:timers/promises';
import { promisify } from 'node:util';
import { afterAll, beforeAll, describe, expect, test } from 'vitest';
import { packageRoot } from '../../src/core/package-info.js';

const run = promisify(execFile);

/**
 * A guard against a hang, not a bound on speed: a build takes some 14 s here alone (20 s of CPU), and
 * with three slow tiers at once (each building its copy) one took past 180 s.
 */
const BUILD_GUARD_MS = 900_000;
const PACE_MS = 100;
let copy: string;

beforeAll(async () => {
  copy = await mkdtemp(join(tmpdir(), 'pcs-build-'));
  for (const entry of ['package.json', 'tsconfig.json', 'vitest.config.ts', 'vitest.slow.config.ts', 'vitest.ground.config.ts', 'bin', 'scripts', 'src', 'suites', 'test', 'schemas', 'dist']) {
    await cp(join(packageRoot, entry), join(copy, entry), { recursive: true });
  }
  await symlink(join(packageRoot, 'node_modules'), join(copy, 'node_modules'), 'dir');
}, BUILD_GUARD_MS);
afterAll(() => rm(copy, { recursive: true, force: true }));

/**
 * `--version` of the copy's CLI, again and again until `until` settles: each exit code and
 * output. One a poll (PACE_MS apart), not back to back: a Node process a moment on end
 * would take a core from the build it watches and double its time on 2 cores.
 */
async function versionsDuring(until: Promise<unknown>): Promise<Array<{ code: number | null; out: string }>> {
  let done = false;
  void until.finally(() => (done = true));
  const seen: Array<{ code: number | null; out: string }> = [];
  while (!done) {
    if (seen.length > 0) await delay(PACE_MS);
    const child = spawn(process.execPath, [join(copy, 'bin/petstore-conformance.js'), '--version']);
    let out = '';
    child.stdout.on('data', (chunk) => (out += chunk));
    child.stderr.on('data', (chunk) => (out += chunk));
    seen.push({ code: await new Promise<number | null>((resolve) => child.on('close', resolve)), out: out.trim() });
  }
  return seen;
}

describe('npm run build', () => {
  test('the CLI answers all through a build: never "not built", never a module missing', async () => {
    const build = run(process.execPath, [join(copy, 'scripts/build.mjs')], { cwd: copy });
    const seen = await versionsDuring(build);
    await build;
    expect(seen.length).toBeGreaterThan(5);
    const { version } = JSON.parse(await readFile(join(copy, 'package.json'), 'utf8')) as { version: string };
    expect(seen.filter(({ code, out }) => code !== 0 || out !== version)).toEqual([]);
  }, BUILD_GUARD_MS);

  test('a build whose inputs are unchanged is skipped, and says so; near miss: one changed byte builds', async () => {
    const again = await run(process.execPath, [join(copy, 'scripts/build.mjs')], { cwd: copy });
    expect(again.stdout).toBe('build: dist/ is current\n');
    const source = join(copy, 'src/core/package-info.ts');
    await writeFile(source, `${await readFile(source, 'utf8')}\n`);
    const changed = await run(process.execPath, [join(copy, 'scripts/build.mjs')], { cwd: copy });
    expect(changed.stdout).not.toContain('dist/ is current');
    expect(await readFile(join(copy, 'dist/.inputs'), 'utf8')).toMatch(/^[0-9a-f]{64}$/);
  }, BUILD_GUARD_MS);

  test('a build that fails leaves dist/ as it was, and says so', async () => {
    const before = await readFile(join(copy, 'dist/src/cli/main.js'), 'utf8');
    await writeFile(join(copy, 'src/broken.ts'), 'export const x: number = "not a number";\n');
    try {
      const failed = await run(process.execPath, [join(copy, 'scripts/build.mjs')], { cwd: copy }).then(() => ({ code: 0, stderr: '' }), (error: { code: number; stderr: string }) => error);
      expect(failed.code).toBe(1);
      expect(failed.stderr).toContain('build: failed; dist/ is left as it was');
      expect(await readFile(join(copy, 'dist/src/cli/main.js'), 'utf8')).toBe(before);
      expect((await run(process.execPath, [join(copy, 'bin/petstore-conformance.js'), '--version'])).stdout.trim()).toMatch(/^\d+\.\d+\.\d+$/);
    } finally {
      await rm(join(copy, 'src/broken.ts'), { force: true });
    }
  }, BUILD_GUARD_MS);
});
