/**
 * Where the proxy's exchanges are judged and recorded: in two threads of their own
 * (judge-thread.ts, one judging, one writing the HAR), so the forwarding never waits on a
 * judgement and the recording never waits on either. Judging a list of 60,000 categories
 * takes some 200 ms; on the forwarding thread it would sit in front of the client's next
 * request, and in front of the HAR it would leave a killed proxy's file thousands of
 * exchanges short. Each thread's backlog is bounded: past it, an exchange is counted, not
 * held. Run from the TypeScript sources with a stale build (development), both run in the
 * process instead: a thread loads compiled code, and stale code must never judge.
 */
import { Worker } from 'node:worker_threads';
import { compiledModule } from '../core/build-state.js';
import { HarStreamWriter, type HarWriteFailure } from './har-writer.js';
import { ProxyJudge, type ProxyJudgeOptions, type ProxyJudgement } from './proxy-judge.js';
import type { ForwardedExchange } from './proxy.js';
import { UsageError } from '../core/errors.js';

/** Bytes of bodies handed to the judge and not yet judged, at most (16 MiB: some 100 ms of judging a 227 KB list): past it, an exchange is forwarded and counted, not judged, never held. */
export const MAX_BACKLOG_BYTES = 16 * 1024 * 1024;

/**
 * The HAR writer's backlog, at most: bytes of bodies, and exchanges, handed to it and not yet
 * in the file (2 MiB, 32: some tens of ms of writing, so a proxy killed with SIGKILL leaves
 * every exchange that ended 100 ms before in the file). Past either, each request arriving
 * waits, unread, until the writer is back under both: the proxy records every exchange, at
 * the writer's pace.
 */
export const RECORDING_BACKLOG = { bytes: 2 * 1024 * 1024, exchanges: 32 };

/** Each thread's young generation (MB): see {@link inThread}. */
const YOUNG_GENERATION_MB = 8;

/** How long past its deadline the judge may take to hand over its judgement before the session ends without it (ms). */
const FINISH_GRACE_MS = 500;

/**
 * Bytes of bodies a judging thread takes between two full collections (16 MiB). Bodies
 * arrive as array buffers, memory outside V8's heap that its own schedule collects late: at
 * loopback speed with 16 clients, a 227 KB list made the proxy's peak RSS 249–271 MB; with a
 * collection every 16 MiB, 226 MB, for some 7 % of its rate.
 */
export const COLLECT_EVERY_BYTES = 16 * 1024 * 1024;
/** What a judging thread starts with: a judge without `har`, a recorder (`options.recordOnly`) with it. */
export interface JudgeThreadData {
  options: ProxyJudgeOptions;
  har?: string;
  /** A Float64Array's memory: when judging ends (ms since the epoch), 0 until the session stops. */
  deadline: SharedArrayBuffer;
}

export type ToJudgeThread = { type: 'exchange'; exchange: ForwardedExchange } | { type: 'finish' };
export type FromJudgeThread =
  | { type: 'ready' }
  | { type: 'failed'; message: string }
  | { type: 'print'; line: string }
  | { type: 'taken'; bytes: number }
  | { type: 'har-failed'; failure: HarWriteFailure }
  | { type: 'finished'; judgement: ProxyJudgement & { notJudged: number } };

/** The proxy's judge, wherever it runs. */
export interface Judging {
  /** Hands over one exchange (its body bytes are moved, not copied). Never throws. */
  take(exchange: ForwardedExchange): void;
  /** Undefined while the HAR writer is within {@link RECORDING_BACKLOG}; else when it is back within it. */
  room(): Promise<void> | undefined;
  /**
   * Ends judging: what is not judged by `deadlineMs` (ms since the epoch) is counted, not
   * judged; the HAR is closed.
   * @returns the judgement, with `notJudged` counting the exchanges shed (a backlog past
   *   {@link MAX_BACKLOG_BYTES}, the deadline), `notRecorded` those the writer had not
   *   reached by the deadline, and `failed` when a thread died.
   */
  finish(deadlineMs: number): Promise<ProxyJudgement & { notJudged: number; notRecorded: number; failed?: string }>;
}

/** Where the judge's output goes: findings (redacted), and a HAR write that failed. */
export interface JudgingOutput {
  print: (line: string) => void;
  onHarFailure: (failure: HarWriteFailure) => void;
}

/**
 * Starts the judge: in a thread when the build is current, else in this process.
 * @param har the HAR file to record to (`--har`).
 * @throws UsageError when the HAR file cannot be created (not a regular file, no such folder).
 */
export async function startJudging(options: ProxyJudgeOptions, har: string | undefined, output: JudgingOutput): Promise<Judging> {
  const compiled = compiledModule(import.meta.url, 'traffic/judge-thread.js');
  if (compiled === undefined) return inProcess(options, har, output);
  const judge = await inThread(compiled, options, undefined, output, { bytes: MAX_BACKLOG_BYTES, exchanges: Infinity });
  const recorder = har === undefined ? undefined : await inThread(compiled, { ...options, quiet: true, recordOnly: true }, har, output, RECORDING_BACKLOG).catch(async (error: unknown) => {
    await judge.finish(Date.now());
    throw error;
  });
  return {
    take(exchange) {
      // The recorder gets a copy; the judge, the bytes themselves.
      recorder?.take({ ...exchange, requestBody: copied(exchange.requestBody), responseBody: copied(exchange.responseBody) });
      judge.take(exchange);
    },
    room: () => recorder?.room(),
    async finish(deadlineMs) {
      const [judged, recorded] = await Promise.all([judge.finish(deadlineMs), recorder?.finish(deadlineMs)]);
      return { ...judged, notRecorded: recorded?.notJudged ?? 0, ...(recorded?.har ? { har: recorded.har } : {}), ...(judged.failed === undefined && recorded?.failed !== undefined ? { failed: `the recording thread: ${recorded.failed}` } : {}) };
    },
  };
}

/** A body's bytes copied: one thread may own the original. */
function copied(body: ForwardedExchange['requestBody']): ForwardedExchange['requestBody'] {
  return { ...body, kept: new Uint8Array(body.kept) };
}

async function inProcess(options: ProxyJudgeOptions, har: string | undefined, output: JudgingOutput): Promise<Judging> {
  const writer = har === undefined ? undefined : await HarStreamWriter.open(har, output.onHarFailure);
  const judge = new ProxyJudge(options, output.print, writer);
  return {
    take: (exchange) => void judge.take(exchange),
    room: () => undefined,
    finish: async () => ({ ...(await judge.finish()), notJudged: 0, notRecorded: 0 }),
  };
}

/**
 * One thread running `file` (judge-thread.ts, or a test's own): a judge, or a recorder when
 * `har` is given; `finish`'s `notJudged` counts what it shed (not judged, or not recorded).
 * Past `bound`, a judge sheds each exchange it is handed; a recorder takes every one and
 * says, through `room`, when to wait. A thread that fails, or that has not finished by the
 * deadline and a grace of {@link FINISH_GRACE_MS}, ends with `failed` saying so.
 */
export async function inThread(file: URL | string, options: ProxyJudgeOptions, har: string | undefined, output: JudgingOutput, bound: { bytes: number; exchanges: number }): Promise<Omit<Judging, 'finish'> & { finish(deadlineMs: number): Promise<ProxyJudgement & { notJudged: number; failed?: string }> }> {
  const deadline = new SharedArrayBuffer(Float64Array.BYTES_PER_ELEMENT);
  const data: JudgeThreadData = { options, ...(har !== undefined ? { har } : {}), deadline };
  // None of the host's Node options (--input-type, --inspect, a loader): the thread needs none.
  // A young generation of 8 MB, not V8's 48: each body is garbage once taken, and the
  // default let three threads' young garbage lift a proxy at loopback speed past 256 MB.
  const worker = new Worker(file, { workerData: data, execArgv: [], resourceLimits: { maxYoungGenerationSizeMb: YOUNG_GENERATION_MB } });
  const backlog = { bytes: 0, exchanges: 0 };
  const within = () => backlog.bytes <= bound.bytes && backlog.exchanges <= bound.exchanges;
  /** Those waiting for the backlog to be within its bound again. */
  let waiting: { promise: Promise<void>; resolve: () => void } | undefined;
  const release = () => {
    waiting?.resolve();
    waiting = undefined;
  };
  let shed = 0;
  let failed: string | undefined;
  let finished: ((judgement: ProxyJudgement & { notJudged: number }) => void) | undefined;
  const ready = new Promise<void>((resolve, reject) => {
    worker.on('message', (message: FromJudgeThread) => {
      switch (message.type) {
        case 'ready':
          return resolve();
        case 'failed':
          return reject(new UsageError(message.message));
        case 'print':
          return output.print(message.line);
        case 'taken':
          backlog.bytes -= message.bytes;
          backlog.exchanges--;
          if (within()) release();
          return;
        case 'har-failed':
          return output.onHarFailure(message.failure);
        case 'finished':
          return finished?.(message.judgement);
      }
    });
    worker.on('error', (error) => {
      failed = `the judging thread failed: ${error.message}`;
      release();
      reject(error);
    });
  });
  await ready.catch(async (error: unknown) => {
    await worker.terminate();
    throw error;
  });
  const empty: ProxyJudgement = { checks: [], counts: { entries: 0, judged: 0, other: 0, missing: {} }, notices: [], judgeErrors: 0, secrets: [] };
  return {
    take(exchange) {
      const bytes = exchange.requestBody.kept.byteLength + exchange.responseBody.kept.byteLength;
      // A judge sheds what would take a backlog past its bound; one exchange alone is always taken.
      if (failed !== undefined || (!options.recordOnly && backlog.exchanges > 0 && backlog.bytes + bytes > bound.bytes)) {
        shed++;
        return;
      }
      backlog.bytes += bytes;
      backlog.exchanges++;
      worker.postMessage({ type: 'exchange', exchange } satisfies ToJudgeThread, [exchange.requestBody.kept.buffer as ArrayBuffer, exchange.responseBody.kept.buffer as ArrayBuffer]);
    },
    room() {
      if (failed !== undefined || within()) return undefined;
      if (!waiting) {
        let resolve!: () => void;
        const promise = new Promise<void>((settle) => (resolve = settle));
        waiting = { promise, resolve };
      }
      return waiting.promise;
    },
    async finish(deadlineMs) {
      new Float64Array(deadline)[0] = deadlineMs;
      release();
      let late: NodeJS.Timeout | undefined;
      const judgement = await new Promise<(ProxyJudgement & { notJudged: number }) | undefined>((resolve) => {
        if (failed !== undefined) return resolve(undefined);
        finished = resolve;
        worker.once('error', () => resolve(undefined));
        worker.postMessage({ type: 'finish' } satisfies ToJudgeThread);
        // One judgement still running past the deadline (a body of a gigabyte) must not hold the session: it ends without the judge's word.
        late = setTimeout(() => {
          failed = 'the judge did not end by its deadline';
          resolve(undefined);
        }, Math.max(0, deadlineMs - Date.now()) + FINISH_GRACE_MS);
      });
      clearTimeout(late);
      await worker.terminate();
      if (!judgement) return { ...empty, notJudged: shed, failed: failed ?? 'the judging thread ended without its judgement' };
      return { ...judgement, notJudged: judgement.notJudged + shed };
    },
  };
}
