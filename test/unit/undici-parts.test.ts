/**
 * undici's parts, loaded one by one (src/http/undici-parts.ts): each is the very value
 * undici's entry exports, and every dispatcher has undici's API (request()) as the entry
 * gives it. An undici that moves a module fails here, not in a run.
 */
import { execFile } from 'node:child_process';
import { readdir, readFile } from 'node:fs/promises';
import { join } from 'node:path';
import { pathToFileURL } from 'node:url';
import { promisify } from 'node:util';
import * as undici from 'undici';
import { describe, expect, test } from 'vitest';
import { packageRoot } from '../../src/core/package-info.js';
import { buildConnector, Client, EnvHttpProxyAgent, Pool } from '../../src/http/undici-parts.js';

const run = promisify(execFile);

describe("undici's parts", () => {
  test.each([
    ['Client', Client, undici.Client],
    ['Pool', Pool, undici.Pool],
    ['EnvHttpProxyAgent', EnvHttpProxyAgent, undici.EnvHttpProxyAgent],
    ['buildConnector', buildConnector, undici.buildConnector],
  ] as const)('%s is the one undici exports', (_name, part, exported) => {
    expect(part).toBe(exported);
  });

  test("a dispatcher has undici's API (request()) in a process that never loads undici's entry", async () => {
    // This process has loaded the entry (above), which gives the API too: a fresh process tells the parts' own.
    const parts = pathToFileURL(join(packageRoot, 'dist/src/http/undici-parts.js')).href;
    const { stdout } = await run(process.execPath, ['--input-type=module', '-e', `const { Client } = await import('${parts}'); console.log(typeof Client.prototype.request)`]);
    expect(stdout).toBe('function\n');
    expect(Client.prototype.request).toBe(undici.Dispatcher.prototype.request);
  });

  test("no module of the tool loads undici's entry: each takes types from it, values from the parts", async () => {
    const sources = (await readdir(join(packageRoot, 'src'), { recursive: true })).filter((file) => file.endsWith('.ts'));
    const loading: string[] = [];
    for (const file of sources) {
      const text = await readFile(join(packageRoot, 'src', file), 'utf8');
      for (const line of text.split('\n')) if (/from 'undici'/.test(line) && !/^import type /.test(line)) loading.push(`${file}: ${line}`);
    }
    expect(sources.length).toBeGreaterThan(50);
    expect(loading).toEqual([]);
  });
});
