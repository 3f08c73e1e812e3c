import { resolve } from 'node:path';
import { findUpSync } from 'find-up-simple';

/** The file looked for, from the working directory up, when `--config` is not given. */
export const DEFAULT_CONFIG_FILE = 'petstore-conformance.yaml';

/**
 * The configuration file to use: `explicit` when given (relative to `cwd`), else the
 * nearest {@link DEFAULT_CONFIG_FILE} in `cwd` or a folder above it, as git and eslint
 * find theirs; undefined when there is none up to the root.
 */
export function configPath(cwd: string, explicit: string | undefined): string | undefined {
  if (explicit) return resolve(cwd, explicit);
  return findUpSync(DEFAULT_CONFIG_FILE, { cwd });
}
