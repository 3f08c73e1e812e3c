import { execFile } from 'node:child_process';
import { mkdtemp, readFile, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { pathToFileURL } from 'node:url';
import { promisify } from 'node:util';
import { describe, expect, test } from 'vitest';
import { packageRoot } from '../../src/core/package-info.js';

// The source as it stands, compiled here (esbuild), not the build: a change to it is tested before `npm run build`.
const PRELOAD = await (async () => {
  const { transform } = await import('esbuild');
  const { code } = await transform(await readFile(join(packageRoot, 'src/runner/worker-preload.ts'), 'utf8'), { loader: 'ts', format: 'esm', target: 'node20' });
  const file = join(await mkdtemp(join(tmpdir(), 'pcs-preload-')), 'worker-preload.mjs');
  await writeFile(file, code);
  return pathToFileURL(file).href;
})();
const hasRegisterHooks = typeof (await import('node:module') as { registerHooks?: unknown }).registerHooks === 'function';

/**
 * Runs `script` (an ES module) in a fresh Node, with or without the worker's preload, and
 * returns what it prints (JSON). The Node of this machine decides which branch runs: on
 * one with `module.registerHooks` the preload must change nothing.
 */
async function inNode(script: string, preload: boolean): Promise<unknown> {
  const args = [...(preload ? ['--import', PRELOAD] : []), '--input-type=module', '-e', script];
  const { stdout } = await promisify(execFile)(process.execPath, args, { cwd: packageRoot });
  return JSON.parse(stdout);
}

// The URL vitest's NativeModuleRunner builds for the suite file it imports, and near misses.
const URLS = `
  import { pathToFileURL } from 'node:url';
  console.log(JSON.stringify([
    pathToFileURL('/p/conformance.test.js?vitest=1795718689167').href,
    pathToFileURL('/p/conformance.test.js?vitest').href,
    pathToFileURL('/p/a?b.js').href,
    pathToFileURL('/p/plain.js').href,
  ]));`;

// Threads of this process (Linux) after a registration: on Node 20 module.register returns
// once its loader-hooks thread runs, so a registration that started one shows at once.
const THREADS_AFTER = (specifier: string) => `
  import module from 'node:module';
  import { readdirSync } from 'node:fs';
  const before = readdirSync('/proc/self/task').length;
  try { module.register(${JSON.stringify(specifier)}, 'file://${packageRoot}/node_modules/vitest/dist/chunks/'); } catch {}
  console.log(JSON.stringify(readdirSync('/proc/self/task').length - before));`;

describe.skipIf(hasRegisterHooks || process.platform !== 'linux')('the worker preload, on a Node without module.registerHooks', () => {
  test('keeps vitest\'s ?vitest=<ms> suffix as the query of the suite file\'s URL; any other path is converted as Node does', async () => {
    expect(await inNode(URLS, false)).toEqual([
      'file:///p/conformance.test.js%3Fvitest=1795718689167',
      'file:///p/conformance.test.js%3Fvitest',
      'file:///p/a%3Fb.js',
      'file:///p/plain.js',
    ]);
    expect(await inNode(URLS, true)).toEqual([
      'file:///p/conformance.test.js?vitest=1795718689167',
      'file:///p/conformance.test.js%3Fvitest', // no "=": not vitest's suffix
      'file:///p/a%3Fb.js',
      'file:///p/plain.js',
    ]);
  });

  test('skips vitest\'s loader-hooks registration (no thread starts) and passes any other registration to Node', async () => {
    expect(await inNode(THREADS_AFTER('#nodejs-worker-loader'), false)).toBeGreaterThan(0);
    expect(await inNode(THREADS_AFTER('#nodejs-worker-loader'), true)).toBe(0);
    const other = 'data:text/javascript,export async function resolve(s, c, next) { return next(s, c); }';
    expect(await inNode(THREADS_AFTER(other), true)).toBeGreaterThan(0);
  });
});
