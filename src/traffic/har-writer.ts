/**
 * A HAR 1.2 file written as exchanges complete (the proxy's `--har FILE`): each entry is
 * redacted and appended, so hours of traffic never sit in memory, and the file is a whole
 * HAR once `close` has written its end.
 */
import { createWriteStream, type WriteStream } from 'node:fs';
import { once } from 'node:events';
import type { Exchange } from '../core/exchange.js';
import { toolVersion } from '../core/package-info.js';
import { harEntry } from '../report/har.js';
import { redactExchange } from '../report/redact.js';
import type { Redactor } from '../secrets/redactor.js';
import { PROXY_CREATOR } from './credentials.js';

export class HarStreamWriter {
  readonly #file: WriteStream;
  #entries = 0;
  #failure: Error | undefined;

  /**
   * Opens `path` (truncating it) and writes the log's head.
   * @throws Error when the file cannot be created (`open` below).
   */
  private constructor(file: WriteStream) {
    this.#file = file;
    file.on('error', (error) => (this.#failure ??= error));
    file.write(`{"log":{"version":"1.2","creator":${JSON.stringify({ name: PROXY_CREATOR, version: toolVersion })},"pages":[],"entries":[\n`);
  }

  /** A writer for `path`, once the file is open. @throws the file system's error (ENOENT, EACCES) when it cannot be created. */
  static async open(path: string): Promise<HarStreamWriter> {
    const file = createWriteStream(path);
    await once(file, 'open');
    return new HarStreamWriter(file);
  }

  /** Appends one exchange, its secrets redacted with what `redactor` knows now. A write that fails is remembered, never thrown (the client's request is not the file's). */
  append(exchange: Exchange, redactor: Redactor): void {
    if (this.#failure) return;
    this.#file.write(`${this.#entries++ > 0 ? ',\n' : ''}${JSON.stringify(harEntry(redactExchange(exchange, redactor)))}`);
  }

  /** Entries written so far. */
  get entries(): number {
    return this.#entries;
  }

  /** Writes the log's end and closes the file. @returns the error that stopped writing, if one did. */
  async close(): Promise<Error | undefined> {
    if (!this.#file.closed) {
      this.#file.end('\n]}}\n');
      await once(this.#file, 'close').catch(() => {});
    }
    return this.#failure;
  }
}
