/**
 * A HAR 1.2 file written as exchanges complete (the proxy's `--har FILE`): each entry is
 * redacted and written with the log's end after it, at the place the end stood, so hours
 * of traffic never sit in memory and the file is a whole HAR after every entry: a proxy
 * killed (SIGKILL) leaves a HAR of every exchange recorded. A write that fails (a full
 * disk, `ulimit -f`) is undone: the file is cut back to its last whole entry, its end
 * written again, and recording stops.
 */
import { constants } from 'node:fs';
import type { FileHandle } from 'node:fs/promises';
import { openRegularFile } from '../config/read-input.js';
import { UsageError } from '../core/errors.js';
import type { Exchange } from '../core/exchange.js';
import { toolVersion } from '../core/package-info.js';
import { harEntry } from '../report/har.js';
import { redactExchange } from '../report/redact.js';
import type { Redactor } from '../secrets/redactor.js';
import { PROXY_CREATOR } from './credentials.js';

/** What closes the log: the entries' array, the log, the document. */
const TAIL = Buffer.from('\n]}}\n');

/** Why recording stopped: the file system's code (`ENOSPC`, `EFBIG`) or what went wrong, and how many entries the file holds. */
export interface HarWriteFailure {
  reason: string;
  entries: number;
}

export class HarStreamWriter {
  readonly #file: FileHandle;
  /** Where the next entry goes: the end's place (bytes). */
  #end: number;
  #entries = 0;
  #offered = 0;
  #failure: HarWriteFailure | undefined;
  /** The writes in order: one at a time, each at the place the previous one left. */
  #queue: Promise<void> = Promise.resolve();
  readonly #onFailure: (failure: HarWriteFailure) => void;

  private constructor(file: FileHandle, headLength: number, onFailure: (failure: HarWriteFailure) => void) {
    this.#file = file;
    this.#end = headLength;
    this.#onFailure = onFailure;
  }

  /**
   * A writer for `path`: a regular file, created or emptied, holding an empty HAR.
   * @param onFailure called once, when a write fails and recording stops.
   * @throws UsageError when `path` is not a regular file (a FIFO, a device) or cannot be created or written (ENOENT, EACCES, ENOSPC).
   */
  static async open(path: string, onFailure: (failure: HarWriteFailure) => void = () => {}): Promise<HarStreamWriter> {
    // O_NOFOLLOW: a link at the path, planted or made, is refused rather than written through (issue 59).
    const file = await openRegularFile(path, 'the HAR file', constants.O_WRONLY | constants.O_CREAT | constants.O_NOFOLLOW);
    const head = Buffer.from(`{"log":{"version":"1.2","creator":${JSON.stringify({ name: PROXY_CREATOR, version: toolVersion })},"pages":[],"entries":[\n`);
    try {
      await file.truncate(0);
      await writeAll(file, Buffer.concat([head, TAIL]), 0);
    } catch (error) {
      await file.close();
      throw new UsageError(`cannot write the HAR file ${path}: ${(error as NodeJS.ErrnoException).code ?? error}`);
    }
    return new HarStreamWriter(file, head.length, onFailure);
  }

  /**
   * Appends one exchange, its secrets redacted with what `redactor` knows now. A write that
   * fails is reported to `onFailure`, never thrown (the client's exchange is not the file's).
   * @returns when the entry is in the file (or recording has stopped).
   */
  append(exchange: Exchange, redactor: Redactor): Promise<void> {
    if (this.#failure) return this.#queue;
    this.#offered++;
    const entry = Buffer.from(`${this.#offered > 1 ? ',\n' : ''}${JSON.stringify(harEntry(redactExchange(exchange, redactor)))}`);
    this.#queue = this.#queue.then(() => this.#write(entry));
    return this.#queue;
  }

  async #write(entry: Buffer): Promise<void> {
    if (this.#failure) return;
    try {
      await writeAll(this.#file, Buffer.concat([entry, TAIL]), this.#end);
      this.#end += entry.length;
      this.#entries++;
    } catch (error) {
      this.#failure = { reason: (error as NodeJS.ErrnoException).code ?? (error as Error).message, entries: this.#entries };
      // Back to the last whole entry: whatever part of this one was written goes, the end is written again.
      await this.#file.truncate(this.#end).catch(() => {});
      await writeAll(this.#file, TAIL, this.#end).catch(() => {});
      this.#onFailure(this.#failure);
    }
  }

  /** Entries written so far. */
  get entries(): number {
    return this.#entries;
  }

  /** Exchanges offered so far, written or not. */
  get offered(): number {
    return this.#offered;
  }

  /** Waits for the writes under way and closes the file. @returns why recording stopped, if it did. */
  async close(): Promise<HarWriteFailure | undefined> {
    await this.#queue;
    await this.#file.close().catch(() => {});
    return this.#failure;
  }
}

/** Writes every byte of `bytes` at `position`: a short write (a size limit or a full disk reached midway) is a failure. */
async function writeAll(file: FileHandle, bytes: Buffer, position: number): Promise<void> {
  const { bytesWritten } = await file.write(bytes, 0, bytes.length, position);
  if (bytesWritten < bytes.length) throw new Error(`a short write (${bytesWritten} of ${bytes.length} bytes: a size limit or a full disk)`);
}
