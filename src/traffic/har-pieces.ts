/**
 * A capture's bytes, inflated and split into the values the reader parses (har-splitter.ts),
 * a batch at a time: in this thread for a small file, and for a large one in a thread of its
 * own (har-read-thread.ts), a few batches ahead of the reader. Reading, inflating and
 * splitting were some 20 % of `judge`'s time on a 300 MB capture; in their own thread the
 * second core does them while this one parses and judges (`npm run bench -- judge`).
 */
import type { FileHandle } from 'node:fs/promises';
import { pipeline, type Readable } from 'node:stream';
import { Worker } from 'node:worker_threads';
import { createGunzip, createInflate } from 'node:zlib';
import { openRegularFile } from '../config/read-input.js';
import { compiledModule } from '../core/build-state.js';
import { HarSplitter, HarSyntaxError, type HarMember, type HarPiece } from './har-splitter.js';

/** Pieces of a capture in the file's order, and whether its first bytes read as a HAR's do. */
export interface PieceBatch {
  pieces: HarPiece[];
  /** The file starts `{"log":` (after a byte order mark and whitespace): a break later is a cut capture, not another kind of file. */
  harStart: boolean;
}

/** How a capture is split. */
export interface PieceOptions {
  /** The largest value handed on whole, as text (bytes: HarSplitter). */
  wholeBytes: number;
  /** Stops the reading: the batches end (the caller tells a stop from an end by the signal). */
  signal?: AbortSignal | undefined;
  /** Read in a thread of its own (default: when the file has {@link THREAD_FROM_BYTES} or more and a build is there to load). */
  thread?: boolean | undefined;
}

/** Files of this size or more are read in a thread of their own (bytes): below it, the thread's start (some 30 ms) costs more than it saves. */
export const THREAD_FROM_BYTES = 8 * 1024 * 1024;

/** What the reading thread is given: the capture's open file (moved to it: it closes it), and the splitter's bound. */
export interface ReadThreadData {
  file: FileHandle;
  wholeBytes: number;
}

/** An error of the reading, as it crosses between threads: a break in the JSON, a file's or an inflater's error (its code), or another. */
export type ReadError = { syntax: true; message: string; atEnd: boolean } | { syntax: false; message: string; code?: string };

/**
 * A batch as it crosses between threads: every piece's bytes in one buffer, moved rather
 * than copied, and where each ends in it; a part of a large value says whether it is its
 * first and last.
 */
export interface PackedBatch {
  bytes: ArrayBuffer;
  pieces: Array<{ member: HarMember; end: number; part?: { first: boolean; last: boolean } }>;
  harStart: boolean;
}

export type FromReadThread = { type: 'batch'; batch: PackedBatch } | { type: 'end' } | { type: 'failed'; error: ReadError; harStart: boolean };
/** Asks the thread for one more batch, and gives back the buffer of one read (for the thread's next batches: none is made per batch). */
export type ToReadThread = { type: 'more'; bytes: ArrayBuffer };

/** Batches the thread reads ahead of the reader, at most: with {@link BATCH_BYTES}, some 4 MiB of the capture. */
export const BATCHES_AHEAD = 4;
/** The reading thread's young generation (MB). */
const YOUNG_GENERATION_MB = 8;

/** Bytes of values a batch holds before it is handed on. */
export const BATCH_BYTES = 1024 * 1024;

/** How a HAR's bytes start: `{"log":`, after a UTF-8 byte order mark and whitespace (read as latin1). */
const HAR_START = /^(\xef\xbb\xbf)?[ \t\r\n]*\{[ \t\r\n]*"log"[ \t\r\n]*:/;
/** Bytes of a file's start looked at for {@link HAR_START}. */
const HAR_START_BYTES = 256;

/**
 * The reading of a capture failed: `cause` is the file's error (an errno `code`), the
 * inflater's (`Z_…`), or a HarSyntaxError where the JSON's structure breaks.
 */
export class ReadingFailed extends Error {
  constructor(
    override readonly cause: Error,
    /** Whether the bytes read before it start as a HAR's do. */
    readonly harStart: boolean,
  ) {
    super(cause.message);
  }
}

/**
 * The pieces of a capture, in batches, until its end.
 * @throws UsageError when the file cannot be opened or is not a regular file;
 *   {@link ReadingFailed} when its reading fails (after the batches before it); anything
 *   else is a failure of the tool (the reading thread's death).
 */
export async function* capturePieces(path: string, options: PieceOptions): AsyncGenerator<PieceBatch> {
  const file = await openRegularFile(path, 'the capture');
  // The file is handed to the streams that read it (or to the thread, which owns it then): they close it.
  const size = await file.stat().then((stats) => stats.size, () => 0);
  const module = (options.thread ?? size >= THREAD_FROM_BYTES) ? compiledModule(import.meta.url, 'traffic/har-read-thread.js') : undefined;
  yield* module !== undefined ? inThread(module, file, options) : inProcess(file, options);
}

/** The reading in this thread. */
async function* inProcess(file: FileHandle, options: PieceOptions): AsyncGenerator<PieceBatch> {
  const streams = await captureStreams(file).catch((error: unknown) => Promise.reject(new ReadingFailed(error as Error, false)));
  const stop = () => streams.forEach((stream) => stream.destroy());
  options.signal?.addEventListener('abort', stop, { once: true });
  try {
    if (options.signal?.aborted) return;
    const start = new HarStart();
    const splitter = new HarSplitter(options.wholeBytes);
    const pieces = async function* () {
      for await (const chunk of streams.at(-1)!) yield splitter.push(start.see(chunk as Buffer));
      yield splitter.end();
    };
    const reading = pieces();
    for (;;) {
      const step = await reading.next().catch((error: unknown) => Promise.reject(new ReadingFailed(error as Error, start.seen)));
      if (step.done) return;
      yield { pieces: step.value, harStart: start.seen };
    }
  } finally {
    options.signal?.removeEventListener('abort', stop);
    stop();
  }
}

/** The reading in a thread of its own (har-read-thread.ts), {@link BATCHES_AHEAD} batches ahead. */
async function* inThread(module: URL | string, file: FileHandle, options: PieceOptions): AsyncGenerator<PieceBatch> {
  const worker = new Worker(module, { workerData: { file, wholeBytes: options.wholeBytes } satisfies ReadThreadData, transferList: [file], execArgv: [], resourceLimits: { maxYoungGenerationSizeMb: YOUNG_GENERATION_MB } });
  const arrived: FromReadThread[] = [];
  let wake: (() => void) | undefined;
  const arrive = (message: FromReadThread) => {
    arrived.push(message);
    wake?.();
  };
  worker.on('message', arrive);
  // The thread's own death (a defect, memory) is no error of the capture's: it is thrown as it came.
  let died: Error | undefined;
  worker.on('error', (error) => {
    died = error;
    wake?.();
  });
  worker.on('exit', () => wake?.());
  const stop = () => void worker.terminate();
  options.signal?.addEventListener('abort', stop, { once: true });
  try {
    for (;;) {
      while (arrived.length === 0 && died === undefined && !options.signal?.aborted && worker.threadId >= 0) await new Promise<void>((resolve) => (wake = resolve));
      if (died) throw died;
      const message = arrived.shift();
      if (message === undefined || message.type === 'end') return;
      if (message.type === 'failed') throw new ReadingFailed(readError(message.error), message.harStart);
      yield unpacked(message.batch);
      // The reader is done with the batch's views: its buffer goes back.
      worker.postMessage({ type: 'more', bytes: message.batch.bytes } satisfies ToReadThread, [message.batch.bytes]);
    }
  } finally {
    options.signal?.removeEventListener('abort', stop);
    await worker.terminate();
  }
}

/**
 * A batch packed to cross between threads: its pieces' bytes copied into one buffer, which
 * is moved. Buffers are made only while none that the reader gave back is large enough:
 * a buffer made per batch was memory outside V8's heap that it collects late (a judge's
 * peak RSS rose by 70 MB).
 * @param spare buffers given back, one of which is taken when large enough.
 */
export function packed(batch: PieceBatch, spare: ArrayBuffer[]): PackedBatch {
  const size = batch.pieces.reduce((sum, piece) => sum + bytesOf(piece).length, 0);
  const fits = spare.findIndex((buffer) => buffer.byteLength >= size);
  const whole = fits >= 0 ? Buffer.from(spare.splice(fits, 1)[0]!) : Buffer.allocUnsafeSlow(Math.max(size, BATCH_BYTES + BATCH_BYTES / 4));
  let end = 0;
  const pieces = batch.pieces.map((piece) => {
    end += bytesOf(piece).copy(whole, end);
    return { member: piece.member, end, ...('part' in piece ? { part: { first: piece.first, last: piece.last } } : {}) };
  });
  return { bytes: whole.buffer as ArrayBuffer, pieces, harStart: batch.harStart };
}

/**
 * A batch as it was before {@link packed}: each whole value a view of the one buffer, valid
 * until the buffer goes back; a part of a large one copied (a stream parser may hold it).
 */
function unpacked(batch: PackedBatch): PieceBatch {
  let start = 0;
  const pieces = batch.pieces.map(({ member, end, part }): HarPiece => {
    const bytes = Buffer.from(batch.bytes, start, end - start);
    start = end;
    return part ? { member, part: Buffer.from(bytes), ...part } : { member, bytes };
  });
  return { pieces, harStart: batch.harStart };
}

const bytesOf = (piece: HarPiece) => ('part' in piece ? piece.part : piece.bytes);

/** The error a {@link ReadError} tells of, as the reading in this thread would have thrown it. */
function readError(error: ReadError): Error {
  if (error.syntax) return new HarSyntaxError(error.message, error.atEnd);
  return Object.assign(new Error(error.message), error.code === undefined ? {} : { code: error.code });
}

/** An error of the reading, to cross between threads. */
export function toReadError(error: unknown): ReadError {
  if (error instanceof HarSyntaxError) return { syntax: true, message: error.message, atEnd: error.atEnd };
  const code = (error as NodeJS.ErrnoException).code;
  return { syntax: false, message: String((error as Error).message ?? error), ...(typeof code === 'string' ? { code } : {}) };
}

/**
 * The streams a capture's bytes come through, its bytes out of the last: the file's,
 * inflated when it is compressed (mitmproxy's har_dump and savehar write `.zhar` files as
 * zlib, RFC 1950; a HAR may be gzipped), told by the first two bytes, whatever the file's
 * name. The file's stream closes the file when it ends or is destroyed.
 */
export async function captureStreams(file: FileHandle): Promise<Readable[]> {
  const head = Buffer.alloc(2);
  await file.read(head, 0, 2, 0);
  const bytes = file.createReadStream({ start: 0 });
  // A zlib header: deflate (CM 8) and a check that makes the two bytes a multiple of 31.
  const inflate = head[0] === 0x1f && head[1] === 0x8b ? createGunzip() : (head[0]! & 0x0f) === 8 && (head[0]! * 256 + head[1]!) % 31 === 0 ? createInflate() : undefined;
  if (!inflate) return [bytes];
  // pipeline, not pipe: a read error reaches the inflated stream's reader, and ends both.
  pipeline(bytes, inflate, () => {});
  return [bytes, inflate];
}

/** Whether a capture's first bytes read as a HAR's: fed each chunk in turn. */
export class HarStart {
  #head = '';
  seen = false;

  /** Looks at a chunk's bytes while the start is short of {@link HAR_START_BYTES}. @returns the chunk. */
  see(chunk: Buffer): Buffer {
    if (this.#head.length < HAR_START_BYTES) {
      this.#head += chunk.toString('latin1', 0, HAR_START_BYTES - this.#head.length);
      this.seen = HAR_START.test(this.#head);
    }
    return chunk;
  }
}
