/**
 * Preloaded (`--import`) into the suite's worker thread when it imports the compiled suite
 * natively on a Node without `module.registerHooks` (before 22.15), such as Node 20.
 *
 * There, vitest's native runner calls `module.register('#nodejs-worker-loader')`, which
 * starts a loader-hooks thread and blocks until it runs (about 80 ms of a run's start on a
 * 2-core machine, and 20 MB of RSS), then sends every module the worker resolves through
 * it. The hooks do two things: report module-graph entries (for watch mode and coverage,
 * neither of which a run uses) and strip the `%3Fvitest=<ms>` that vitest's
 * `NativeModuleRunner` puts in the path of the file it imports (it appends `?vitest=<ms>`
 * to a path and converts it with `pathToFileURL`, which escapes the `?`).
 *
 * So this module skips that one registration and makes `pathToFileURL` keep that suffix
 * as the URL's query, which Node's own resolver reads. Nothing else is touched: any other
 * registration, and every other path, goes to Node's own functions. Measured with
 * `npm run bench -- a` (see the commit that added it).
 */
import module from 'node:module';
import url from 'node:url';

/** The specifier of vitest's own loader hooks (vitest 4, `dist/chunks/native.*.js`). */
const VITEST_LOADER = '#nodejs-worker-loader';
/** The suffix vitest's native runner appends to the path of a suite file it imports. */
const VITEST_QUERY = '?vitest=';

if (typeof (module as { registerHooks?: unknown }).registerHooks !== 'function') {
  const register = module.register;
  module.register = function (this: unknown, specifier: string | URL, ...rest: unknown[]) {
    if (specifier === VITEST_LOADER) return;
    return (register as (...args: unknown[]) => void).call(this, specifier, ...rest);
  } as typeof module.register;

  const pathToFileURL = url.pathToFileURL;
  url.pathToFileURL = function (path: string, options?: Parameters<typeof pathToFileURL>[1]): URL {
    const at = typeof path === 'string' ? path.lastIndexOf(VITEST_QUERY) : -1;
    if (at < 0) return pathToFileURL(path, options);
    const fileUrl = pathToFileURL(path.slice(0, at), options);
    fileUrl.search = path.slice(at);
    return fileUrl;
  } as typeof url.pathToFileURL;
  // vitest imports `pathToFileURL` as a named ES export of node:url: make that binding see it.
  module.syncBuiltinESMExports();
}
