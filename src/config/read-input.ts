import { constants } from 'node:fs';
import { open, stat, type FileHandle } from 'node:fs/promises';
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
  const file = await openRegularFile(path, what);
  try {
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

/**
 * Opens a file the user named for reading, refusing anything but a regular file: a FIFO
 * without a writer would block the open (and a signal with it), a device never ends.
 * @param what the file's kind, for the message: `the capture`.
 * @param flags the open's flags; with `O_NOFOLLOW`, a symbolic link is refused.
 * @throws UsageError `cannot read <what> <path>: <code>`, `<what> <path> is not a regular file (a FIFO)`,
 *   or `<what> <path> is a symbolic link`.
 */
export async function openRegularFile(path: string, what: string, flags = constants.O_RDONLY): Promise<FileHandle> {
  let file: FileHandle;
  try {
    // O_NONBLOCK: opening a FIFO without a peer returns at once (or fails, ENXIO, for writing), so it can be refused.
    file = await open(path, flags | constants.O_NONBLOCK);
  } catch (error) {
    const code = (error as NodeJS.ErrnoException).code;
    // ENXIO: a FIFO opened for writing without a reader, or a socket, which no open reads: named by what it is.
    if (code === 'ENXIO') throw new UsageError(`${what} ${path} is not a regular file (${await stat(path).then(kindOf, () => 'a FIFO')}): name a file`);
    // ELOOP under O_NOFOLLOW: the last component is a symbolic link.
    if (code === 'ELOOP' && flags & constants.O_NOFOLLOW) throw new UsageError(`${what} ${path} is a symbolic link: name the file itself`);
    throw new UsageError(`cannot ${flags === constants.O_RDONLY ? 'read' : 'write'} ${what} ${path}: ${code ?? error}`);
  }
  const stats = await file.stat().catch(async (error: NodeJS.ErrnoException) => {
    await file.close();
    throw new UsageError(`cannot read ${what} ${path}: ${error.code ?? error}`);
  });
  if (!stats.isFile()) {
    await file.close();
    throw new UsageError(`${what} ${path} is not a regular file (${kindOf(stats)}): name a file`);
  }
  return file;
}

function kindOf(stats: { isDirectory(): boolean; isFIFO(): boolean; isCharacterDevice(): boolean; isBlockDevice(): boolean; isSocket(): boolean }): string {
  if (stats.isDirectory()) return 'a folder';
  if (stats.isFIFO()) return 'a FIFO';
  if (stats.isCharacterDevice() || stats.isBlockDevice()) return 'a device';
  if (stats.isSocket()) return 'a socket';
  return 'not a file';
}
