/**
 * The compiled CLI in a child process, as users run it: its output as it comes, a wait for
 * a line of it, and its end. Every child is bounded by a 60 s kill.
 */
import { spawn } from 'node:child_process';
import { mkdtemp } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';

const BIN = fileURLToPath(new URL('../../bin/petstore-conformance.js', import.meta.url));
export const tempDir = () => mkdtemp(join(tmpdir(), 'pcs-cli-traffic-'));

/** Console text with wrapped lines joined: the console wraps at 100 columns, continuing a line two spaces in. */
export const unwrapped = (text: string) => text.replace(/\n {2}(?=\S)(?!- )/g, ' ');

/**
 * A started CLI: its process, its output so far, a wait for a line of it, and its end.
 * Bounded by a 60 s kill.
 * @param shell commands the shell runs before it becomes the CLI (`ulimit -f 64`).
 */
export function startCli(args: string[], env: Record<string, string> = {}, shell?: string) {
  const { PETSTORE_API_KEY: _drop, ...base } = process.env;
  const options = { env: { ...base, ...env, NO_COLOR: '1' } };
  // A shell prefix (`ulimit -f 64`) runs before the CLI replaces the shell (exec): the child is the CLI itself.
  const child = shell === undefined ? spawn(process.execPath, [BIN, ...args], options) : spawn('/bin/sh', ['-c', `${shell}; exec "$0" "$@"`, process.execPath, BIN, ...args], options);
  const output = { stdout: '', stderr: '' };
  const waiting: Array<{ stream: keyof typeof output; pattern: RegExp; resolve: (match: RegExpExecArray) => void }> = [];
  for (const stream of ['stdout', 'stderr'] as const) {
    child[stream].on('data', (chunk) => {
      output[stream] += chunk;
      for (const wait of waiting.splice(0)) {
        const match = wait.stream === stream ? wait.pattern.exec(output[stream]) : null;
        if (match) wait.resolve(match);
        else waiting.push(wait);
      }
    });
  }
  const kill = setTimeout(() => child.kill('SIGKILL'), 60_000);
  const result = new Promise<{ code: number | null; stdout: string; stderr: string }>((resolve) =>
    child.on('close', (code) => {
      clearTimeout(kill);
      resolve({ code, ...output });
    }),
  );
  /** Resolves once the stream's output matches `pattern` (the child's 60 s kill bounds the wait). */
  const waitFor = (stream: keyof typeof output) => (pattern: RegExp) =>
    new Promise<RegExpExecArray>((resolve) => {
      const match = pattern.exec(output[stream]);
      if (match) resolve(match);
      else waiting.push({ stream, pattern, resolve });
    });
  return { child, until: waitFor('stdout'), untilErr: waitFor('stderr'), result };
}

