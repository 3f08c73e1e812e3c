import { join } from 'node:path';

/** Packages the bundles import as published: vitest's runner (one instance for the thread and the suite), ajv (loaded on demand), undici, shescape. */
const EXTERNAL = ['@vitest/runner', 'ajv', 'ajv-formats', 'undici', 'shescape'];

/**
 * Bundles the suite's thread and the conformance suite, with the modules they import
 * (the conformance classes, fast-check, lossless-json, the p-* helpers), into ES modules in
 * `outDir`: `suite-thread.js`, `conformance.test.js`, and the chunks they share (one per
 * class module the suite imports on demand, and the code both use: the HTTP client, for
 * the probe). The suite's `import ... from 'vitest'` is served by suite-api.ts. On Node 20
 * each ES module a thread loads costs about 0.3 ms of resolving and linking: some 20
 * modules instead of some 170.
 *
 * Outside the bundles ({@link EXTERNAL}): `@vitest/runner`, which the thread and the suite
 * must share; ajv, loaded on demand (the validators come precompiled); undici, loaded as
 * published: bundled, its requests on reused connections missed a 400 ms deadline
 * against a server answering at once in 4 runs of 4 (0 of 4 unbundled); and shescape
 * (replay commands), which requires Node's built-ins as CommonJS does.
 * @param from the folder holding `suites/` and `src/` (the package root for the
 *   TypeScript sources, `dist/` for the compiled modules).
 * @param extension of the modules under `from`: `ts` or `js`.
 * @throws Error when esbuild is not installed (it is a development dependency) or fails.
 */
export async function bundleSuite(from: string, extension: 'ts' | 'js', outDir: string): Promise<void> {
  const { build } = await import('esbuild');
  await build({
    entryPoints: {
      'conformance.test': join(from, `suites/conformance.test.${extension}`),
      'suite-thread': join(from, `src/runner/suite-thread.${extension}`),
    },
    outdir: outDir,
    bundle: true,
    // What both import (the HTTP client: the thread sends the probe) is one module, in a chunk beside them.
    splitting: true,
    chunkNames: 'shared-[hash]',
    format: 'esm',
    platform: 'node',
    target: 'node20',
    alias: { vitest: join(from, `src/runner/suite-api.${extension}`) },
    external: EXTERNAL,
    logLevel: 'warning',
  });
}
