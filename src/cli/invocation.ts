import { basename, delimiter, dirname, isAbsolute, relative, resolve } from 'node:path';
import { shellWords } from '../config/replay.js';

/** The tool's name, as npm installs its bin. */
const BIN = 'petstore-conformance';

/**
 * How the user runs this tool from where they are, as a replay command starts, quoted for
 * POSIX sh (a `Replay:` line is pasted where the run was started):
 * - through npx (npm sets `npm_command=exec`): `npx petstore-conformance`;
 * - a bin found on PATH under its name (a global install): `petstore-conformance`;
 * - otherwise node and the script's path as invoked, relative when it lies under the
 *   working folder: `node bin/petstore-conformance.js` (the quick start's form).
 * @param script the entry point as node was given it (`process.argv[1]`).
 */
export function invocation(script: string | undefined, env: NodeJS.ProcessEnv, cwd: string): string {
  if (env.npm_command === 'exec') return `npx ${BIN}`;
  if (!script) return `npx ${BIN}`;
  const path = resolve(cwd, script);
  const onPath = (env.PATH ?? '').split(delimiter).some((folder) => folder !== '' && resolve(cwd, folder) === dirname(path));
  if (basename(path) === BIN && onPath) return BIN;
  const shown = relative(cwd, path);
  return shellWords(['node', shown.startsWith('..') || isAbsolute(shown) ? path : shown]);
}
