import { constants } from 'node:fs';
import { open } from 'node:fs/promises';
import { UsageError, hasCode } from '../core/errors.js';

/** Largest file the user names that the tool reads, in bytes (1 MiB): a key, a certificate, a configuration. */
export const MAX_INPUT_BYTES = 1024 * 1024;

/**
 * A file the user named, as text (a key, a certificate, a configuration, a fleet part's
 * report). Only a regular file is read: a device (`/dev/zero`, `/dev/urandom`) never ends
 * and a FIFO without a writer never opens. The cap counts the bytes read, not the size the
 * file system reports (a device reports 0).
 * @param what the file's kind, for the message: `the CA file`.
 * @param maxBytes the most bytes read (default {@link MAX_INPUT_BYTES}).
 * @throws UsageError `cannot read <what> <path>: <code>`, `<path> is not a regular file`, or
 *   `<path> is over <maxBytes> bytes`; never quoting the content.
 */
export async function readInput(path: string, what: string, maxBytes = MAX_INPUT_BYTES): Promise<string> {
  let file;
  try {
    // O_NONBLOCK: opening a FIFO without a writer returns at once, so it can be refused.
    file = await open(path, constants.O_RDONLY | constants.O_NONBLOCK);
  } catch (error) {
    throw new UsageError(`cannot read ${what} ${path}: ${(error as NodeJS.ErrnoException).code ?? error}`);
  }
  try {
    const stats = await file.stat();
    if (!stats.isFile()) throw new UsageError(`${what} ${path} is not a regular file (${kindOf(stats)}): name a file`);
    // Read in chunks, counting: a file may hold more than its reported size.
    const chunks: Buffer[] = [];
    let length = 0;
    for (let bytesRead = -1; bytesRead !== 0 && length <= maxBytes; length += bytesRead) {
      const chunk = Buffer.alloc(64 * 1024);
      ({ bytesRead } = await file.read(chunk, 0, chunk.length, null));
      chunks.push(chunk.subarray(0, bytesRead));
    }
    if (length > maxBytes) throw new UsageError(`${what} ${path} is over ${maxBytes} bytes; it may be ${maxBytes} at most`);
    return Buffer.concat(chunks).toString('utf8');
  } catch (error) {
    if (hasCode(error, 'PCS_USAGE')) throw error;
    throw new UsageError(`cannot read ${what} ${path}: ${(error as NodeJS.ErrnoException).code ?? error}`);
  } finally {
    await file.close();
  }
}

function kindOf(stats: { isDirectory(): boolean; isFIFO(): boolean; isCharacterDevice(): boolean; isBlockDevice(): boolean; isSocket(): boolean }): string {
  if (stats.isDirectory()) return 'a folder';
  if (stats.isFIFO()) return 'a FIFO';
  if (stats.isCharacterDevice() || stats.isBlockDevice()) return 'a device';
  if (stats.isSocket()) return 'a socket';
  return 'not a file';
}
