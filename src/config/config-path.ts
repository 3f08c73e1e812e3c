import { existsSync } from 'node:fs';
import { resolve } from 'node:path';

/** The file looked for in the working directory when `--config` is not given. */
export const DEFAULT_CONFIG_FILE = 'petstore-conformance.yaml';

/** The configuration file to use: `explicit` when given, else the default file if it exists. */
export function configPath(cwd: string, explicit: string | undefined): string | undefined {
  if (explicit) return resolve(cwd, explicit);
  const fallback = resolve(cwd, DEFAULT_CONFIG_FILE);
  return existsSync(fallback) ? fallback : undefined;
}
