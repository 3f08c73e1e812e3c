/**
 * A server for the bench in a process of its own, so that serving weighs on the bench's
 * clock and not on the measured run's CPU: `petstore-conformance serve`, or a script that
 * prints the same `listening on <base URL>` line (serve-sized.ts).
 */
import { spawn, type ChildProcess } from 'node:child_process';
import { once } from 'node:events';

/** A running server: its base URL, and how to stop it (SIGTERM, then its exit awaited). */
export interface ServedProcess {
  baseUrl: string;
  stop(): Promise<void>;
}

/**
 * Starts `node <args>` and waits for its `listening on <base URL>` line.
 * @throws Error when the process ends or prints no such line.
 */
export async function serveProcess(args: string[], apiKey: string): Promise<ServedProcess> {
  const child: ChildProcess = spawn(process.execPath, args, { env: { ...process.env, PETSTORE_API_KEY: apiKey }, stdio: ['ignore', 'pipe', 'inherit'] });
  let printed = '';
  for await (const chunk of child.stdout!) {
    printed += String(chunk);
    if (/listening on \S+\n/.test(printed)) break;
  }
  const baseUrl = /listening on (\S+)/.exec(printed)?.[1];
  if (!baseUrl) throw new Error(`${args.join(' ')} printed no address: ${printed}`);
  return {
    baseUrl,
    async stop() {
      child.kill('SIGTERM');
      if (child.exitCode === null) await once(child, 'exit');
    },
  };
}
