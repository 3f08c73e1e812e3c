/**
 * The CLI run in this process (src/cli/main.ts `main`), its output captured: what the
 * command-line tests drive when no process of its own is needed.
 */
import { PassThrough } from 'node:stream';
import { main } from '../../src/cli/main.js';

/** What a command ended with. */
export interface Ended {
  code: number;
  stdout: string;
  stderr: string;
}

/**
 * Runs the CLI with `argv` in `cwd`; stdout claims a terminal when `tty` is set; `interrupt`
 * stands for Ctrl-C (an aborted one stops a proxy as soon as it listens); `script`, the
 * entry point as node was given it (replay commands start with it; absent: `npx …`).
 */
export async function cli(argv: string[], { env = {}, cwd, tty = false, interrupt, stdout, script }: { env?: NodeJS.ProcessEnv; cwd: string; tty?: boolean; interrupt?: AbortSignal; stdout?: NodeJS.WritableStream; script?: string }): Promise<Ended> {
  let out = '';
  let err = '';
  const output = stdout ?? Object.assign(new PassThrough().on('data', (chunk) => (out += chunk)), { isTTY: tty });
  const code = await main(argv, { stdout: output, stderr: new PassThrough().on('data', (chunk) => (err += chunk)), env, cwd, ...(interrupt ? { interrupt } : {}), ...(script ? { script } : {}) });
  return { code, stdout: out, stderr: err };
}
