import { readFile } from 'node:fs/promises';
import { UsageError } from '../core/errors.js';

/**
 * A file the user named, as text (a key, a certificate, a fleet part's report).
 * @param what the file's kind, for the message: `the CA file`.
 * @throws UsageError `cannot read <what> <path>: <code>`, never quoting the content.
 */
export async function readInput(path: string, what: string): Promise<string> {
  try {
    return await readFile(path, 'utf8');
  } catch (error) {
    throw new UsageError(`cannot read ${what} ${path}: ${(error as NodeJS.ErrnoException).code ?? error}`);
  }
}
