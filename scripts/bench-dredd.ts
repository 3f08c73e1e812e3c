/**
 * `npm run bench -- dredd`: the full run beside a peer tool, as a user runs each (issue 48
 * §1): whole processes under GNU time, against a reference server in a process of its own
 * (`serve`), a fresh one for every run so that no run meets another's categories. Dredd
 * 14.1.0 runs the interface's five transactions (scripts/dredd/openapi.yaml; its hooks run
 * the 400 and 401 ones too); this tool runs its full default profile. Pairs are interleaved,
 * Dredd first in odd pairs and last in even ones, so a noisy machine weighs on both alike.
 * Dredd is no dependency of the project: `npm install --no-save dredd@14.1.0`, or DREDD set
 * to its executable.
 */
import { existsSync } from 'node:fs';
import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import type { Timed } from './bench-traffic.js';
import { serveProcess } from './bench-serve.js';

const KEY = 'Bench-Key-0123456789abcdefghijKLMN';

/** Where Dredd is: DREDD, or this checkout's node_modules; undefined when it is not installed. */
export function dreddPath(root: string): string | undefined {
  const candidates = [process.env.DREDD, join(root, 'node_modules/.bin/dredd')].filter((path): path is string => path !== undefined);
  return candidates.find((path) => existsSync(path));
}

/**
 * `pairs` interleaved pairs of whole-process runs, each against a fresh server.
 * @returns each tool's wall times (ms) and peak RSS (MiB), in run order; undefined when Dredd is not installed.
 */
export async function benchDredd(cli: string, root: string, timed: Timed, pairs = 9) {
  const dredd = dreddPath(root);
  if (!dredd) return undefined;
  const dir = await mkdtemp(join(tmpdir(), 'pcs-bench-dredd-'));
  const spec = join(root, 'scripts/dredd/openapi.yaml');
  const hooks = join(root, 'scripts/dredd/hooks.js');
  const runs = {
    dredd: (baseUrl: string) => timed([dredd, spec, new URL(baseUrl).origin, `--hookfiles=${hooks}`], { DREDD_KEY: KEY }),
    suite: (baseUrl: string) => timed([process.execPath, cli, 'run', '--base-url', baseUrl, '--report-dir', dir], { PETSTORE_API_KEY: KEY }),
  };
  const samples = { dredd: [] as Array<{ wallMs: number; peakRssMb: number }>, suite: [] as Array<{ wallMs: number; peakRssMb: number }> };
  try {
    for (let i = 0; i < pairs; i++) {
      for (const tool of i % 2 === 0 ? (['dredd', 'suite'] as const) : (['suite', 'dredd'] as const)) {
        const server = await serveProcess([cli, 'serve', '--port', '0'], KEY);
        try {
          samples[tool].push(await runs[tool](server.baseUrl));
        } finally {
          await server.stop();
        }
      }
      process.stderr.write('.');
    }
  } finally {
    await rm(dir, { recursive: true, force: true });
  }
  return samples;
}
