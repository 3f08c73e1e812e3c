/*
 * Failures of the tool itself, told apart from the target's. Imports only node:fs: the
 * entry point loads it (through cli/signals.ts) before anything else.
 */
import { readFileSync } from 'node:fs';

/** How every line of a failure of the tool starts. */
const TOOL_FAILED = 'the tool failed: ';

/** Whether a reason the run stopped for is a failure of the tool (a {@link ToolFailure}'s line), not the target's or the user's. */
export function isToolFailureLine(reason: string | undefined): boolean {
  return reason?.startsWith(TOOL_FAILED) === true;
}

/** The failure of the tool a message tells of (`the suite did not run: the tool failed: …`), from its words `the tool failed`; undefined when it tells of none. */
export function toolFailureIn(message: string | undefined): string | undefined {
  const at = message?.indexOf(TOOL_FAILED) ?? -1;
  return at < 0 ? undefined : message!.slice(at);
}

/**
 * A failure of the tool itself (not of the target): an error nobody caught, a promise
 * nobody awaited, the memory or file descriptors the process may use exhausted. It ends
 * the run like an interrupt (the report of what ran, verdict `error`), and the CLI exits
 * with its own code, never 1. `line` names the cause and what to do, in one line.
 */
export class ToolFailure extends Error {
  constructor(readonly line: string) {
    super(line);
  }

  override toString(): string {
    return this.line;
  }
}

/**
 * The one line a failure of the tool is reported as, naming what ran out and what to do
 * (Node's error codes: EMFILE, ENOMEM; V8's messages for WebAssembly memory).
 * @param workerError the last error a worker thread died of, if one did.
 */
export function toolFailure(error: unknown, workerError?: unknown): ToolFailure {
  const exhausted = resourceExhausted(error) ?? (workerError === undefined ? undefined : resourceExhausted(workerError));
  if (exhausted) return exhausted;
  if (error instanceof ToolFailure) return error;
  // A worker thread that died says only that it exited: its own error says why.
  if (workerError !== undefined) return new ToolFailure(`${TOOL_FAILED}the suite's worker failed: ${firstLine(workerError)}`);
  // A worker thread that ran out of file descriptors dies without saying why; the process's
  // limit (threads share it) tells the likely cause.
  const limit = openFileLimit();
  if (limit !== undefined && limit < LOW_OPEN_FILE_LIMIT) {
    return new ToolFailure(`${TOOL_FAILED}too many open files: raise ulimit -n or lower --connections (the open-file limit is ${limit}; ${firstLine(error)})`);
  }
  return new ToolFailure(`${TOOL_FAILED}${firstLine(error)}`);
}

/** An open-file limit under which the tool cannot run its worker and connections (Linux's default is 1024). */
const LOW_OPEN_FILE_LIMIT = 256;

/** The process's soft limit on open files (Linux: /proc/self/limits), or undefined where it cannot be read. */
function openFileLimit(): number | undefined {
  try {
    const line = readFileSync('/proc/self/limits', 'utf8').split('\n').find((row) => row.startsWith('Max open files'));
    const soft = line?.split(/\s{2,}/)[1];
    return soft && /^\d+$/.test(soft) ? Number(soft) : undefined;
  } catch {
    return undefined;
  }
}

/**
 * The failure when `error` says the process ran out of what it may use (file descriptors,
 * memory): then no request can be judged, and the run stops; undefined for any other error.
 */
export function resourceExhausted(error: unknown): ToolFailure | undefined {
  for (let cause = error, depth = 0; cause && depth < 4; cause = (cause as { cause?: unknown }).cause, depth++) {
    const { code, message } = cause as { code?: string; message?: string };
    const text = String(message ?? cause);
    if (code === 'EMFILE' || code === 'ENFILE' || /too many open files/i.test(text)) {
      return new ToolFailure(`${TOOL_FAILED}too many open files: raise ulimit -n or lower --connections`);
    }
    if (/WebAssembly|Wasm/.test(text) && /memory/i.test(text)) {
      return new ToolFailure(`${TOOL_FAILED}out of memory reserving the HTTP parser (WebAssembly): raise ulimit -v`);
    }
    if (code === 'ENOMEM' || code === 'ERR_MEMORY_ALLOCATION_FAILED' || /Array buffer allocation failed|out of memory/i.test(text)) {
      return new ToolFailure(`${TOOL_FAILED}out of memory: raise ulimit -v or the memory limit`);
    }
  }
  return undefined;
}

function firstLine(error: unknown): string {
  return String((error as { message?: string } | undefined)?.message ?? error).split('\n')[0]!;
}

/**
 * An error's first line with its causes' (`[vitest-pool]: Worker emitted error.: thrown in
 * a check`): a wrapper's own words rarely say what went wrong.
 */
export function withCauses(error: unknown): string {
  const lines: string[] = [];
  for (let cause = error, depth = 0; cause !== undefined && cause !== null && depth < 3; cause = (cause as { cause?: unknown }).cause, depth++) {
    lines.push(firstLine(cause));
  }
  return lines.join(': ');
}
