import { pathToFileURL } from 'node:url';
import { mkdir, mkdtemp, readdir, readFile, rm, utimes, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { dirname, join } from 'node:path';
import { describe, expect, test } from 'vitest';
import type { RunSettings } from '../../src/config/settings.js';
import { packageRoot } from '../../src/core/package-info.js';
import { CheckCollector } from '../../src/runner/collector.js';
import { startSuite } from '../../src/runner/suite.js';
import { suiteFiles } from '../../src/runner/suite-files.js';

describe('the suite\'s one test file', () => {
  test('loads every conformance class in suites/, each once, in its own describe block, the invariants last and alone', async () => {
    const entry = await readFile(join(packageRoot, 'suites/conformance.test.ts'), 'utf8');
    const concurrent = [...entry.matchAll(/^ {2}\['([\w-]+)', \(\) => import\('\.\/([\w-]+)\.js'\)\],$/gm)];
    const modules = (await readdir(join(packageRoot, 'suites'))).filter((name) => name !== 'conformance.test.ts').map((name) => name.replace(/\.ts$/, ''));
    expect([...concurrent.map((match) => match[2]), 'invariants'].sort()).toEqual(modules.sort());
    expect(concurrent.every((match) => match[1] === match[2])).toBe(true); // each block is named by its class
    // Per target: the listed classes concurrently, then the invariants alone.
    expect(entry).toMatch(/for \(const \[name, module\] of CONCURRENT\) describe\.concurrent\(name, \(\) => load\(target, name, module\)\);\n\s+describe\.sequential\('invariants', \(\) => load\(target, 'invariants', \(\) => import\('\.\/invariants\.js'\)\)\);/);
  });
});

describe('which suite files a run loads', () => {
  /** A package with one suite and one module, bundled at `builtAt` (s since the epoch), edited at `editedAt`. */
  async function pkg(editedAt: number, builtAt: number | undefined): Promise<string> {
    const root = await mkdtemp(join(tmpdir(), 'pcs-suites-'));
    const files: Array<[string, number | undefined]> = [
      ['suites/conformance.test.ts', editedAt],
      ['src/x.ts', editedAt],
      ['dist/worker/conformance.test.js', builtAt],
    ];
    for (const [path, time] of files) {
      if (time === undefined) continue;
      await mkdir(dirname(join(root, path)), { recursive: true });
      await writeFile(join(root, path), '');
      await utimes(join(root, path), time, time);
    }
    return root;
  }

  test('the compiled bundle, imported natively, when the build is current', async () => {
    const root = await pkg(1_000, 2_000);
    expect(suiteFiles(false, root)).toEqual({
      dir: join(root, 'dist/worker'),
      include: 'conformance.test.js',
      native: true,
      preload: pathToFileURL(join(root, 'dist/src/runner/worker-preload.js')).href,
    });
  });

  test('the sources, through vitest\'s transform, when a source is newer than its build or was never built', async () => {
    for (const root of [await pkg(2_000, 1_000), await pkg(1_000, undefined)]) {
      expect(suiteFiles(false, root)).toEqual({ dir: join(root, 'suites'), include: 'conformance.test.ts', native: false });
    }
  });

  test('always the compiled files when the caller itself is compiled (the CLI)', async () => {
    const root = await pkg(2_000, 1_000);
    expect(suiteFiles(true, root).native).toBe(true);
  });
});

describe('a conformance class whose module fails to load', () => {
  test('stops the run before any check, with a run error naming the class', async () => {
    // Inside the package, so that the files' `import 'vitest'` resolves natively.
    await mkdir(join(packageRoot, 'reports'), { recursive: true });
    const dir = await mkdtemp(join(packageRoot, 'reports', '.runner-test-'));
    try {
      // The suite's own entry, compiled, beside class modules of which one throws.
      const entry = await readFile(join(packageRoot, 'dist/suites/conformance.test.js'), 'utf8');
      const names = [...entry.matchAll(/import\('\.\/([\w-]+)\.js'\)/g)].map((match) => match[1]!);
      const meta = (id: string) => ({ check: { id, title: 'sends nothing', clause: '0', level: 'info', requirements: [], exchanges: [], created: [] } });
      for (const name of names) {
        const body = name === 'model' ? `throw new Error('the module is broken');\n` : `import { test } from 'vitest';\nexport default () => test('${name}', { meta: ${JSON.stringify(meta(name))} }, () => {});\n`;
        await writeFile(join(dir, `${name}.js`), body);
      }
      // Its imports of the package's own modules, pointed at the package from the temporary folder.
      await writeFile(join(dir, 'conformance.test.js'), entry.replaceAll("'../src/", `'${pathToFileURL(join(packageRoot, 'dist/src')).href}/`));
      const collector = new CheckCollector();
      const suite = await startSuite([{ concurrency: 4, baseUrl: 'http://127.0.0.1:9/v1', runId: 'r1' } as RunSettings], [collector], { files: { dir, include: 'conformance.test.js', native: true } });
      expect(await suite.finished).toBeUndefined();
      expect(collector.runErrors).toEqual([`${join(dir, 'conformance.test.js')}: conformance class model did not load: the module is broken`]);
      expect(collector.results).toEqual([]);
    } finally {
      await rm(dir, { recursive: true, force: true });
    }
  });
});

describe('the suite\'s worker', () => {
  test('imports the suite files\' preload before them (--import), and nothing when they have none', async () => {
    await mkdir(join(packageRoot, 'reports'), { recursive: true });
    const dir = await mkdtemp(join(packageRoot, 'reports', '.runner-test-'));
    try {
      // The one test writes the worker's execArgv beside itself.
      await writeFile(join(dir, 'conformance.test.js'), `import { writeFileSync } from 'node:fs';\nimport { test } from 'vitest';\ntest('argv', () => writeFileSync(${JSON.stringify(join(dir, 'argv.json'))}, JSON.stringify(process.execArgv)));\n`);
      const execArgvWith = async (preload: string | undefined) => {
        const suite = await startSuite([{ concurrency: 1, runId: 'r1' } as RunSettings], [new CheckCollector()], { files: { dir, include: 'conformance.test.js', native: true, ...(preload ? { preload } : {}) } });
        await suite.finished;
        return JSON.parse(await readFile(join(dir, 'argv.json'), 'utf8')) as string[];
      };
      const { preload } = suiteFiles(true);
      // Beside what the worker inherits from this process (vitest's own options).
      const imported = (argv: string[]) => argv.flatMap((arg, at) => (arg === '--import' ? [argv[at + 1]] : []));
      expect(imported(await execArgvWith(preload))).toEqual([preload]);
      expect(imported(await execArgvWith(undefined))).toEqual([]);
    } finally {
      await rm(dir, { recursive: true, force: true });
    }
  });
});

describe('CheckCollector, a check reported twice', () => {
  test('keeps the exchanges it was first reported with, and prints it once (a cancelled run reports its checks again)', async () => {
    const { answered } = await import('../support/exchanges.js');
    const printed: string[] = [];
    const collector = new CheckCollector((result) => printed.push(`${result.id} ${result.requests}`));
    const meta = { id: 'c', title: 'c', clause: '5', level: 'must', requirements: [], exchanges: [answered(401), answered(401)], created: [] };
    const testCase = { meta: () => ({ check: meta }), result: () => ({ state: 'passed' }), diagnostic: () => ({ duration: 1 }) } as never;
    collector.onTestCaseResult(testCase);
    collector.onTestCaseResult(testCase);
    expect(collector.exchanges).toHaveLength(2);
    expect(collector.results.map((result) => result.requests)).toEqual([2]);
    expect(printed).toEqual(['c 2']);
  });

  test('a check whose exchanges did not all reach the collector cannot pass (issue 25: 13 checks passed on 1 recorded request)', async () => {
    const { answered } = await import('../support/exchanges.js');
    const collector = new CheckCollector();
    const meta = { id: 'c', title: 'c', clause: '5', level: 'must', requirements: [], exchanges: [answered(401)], recorded: 3, created: [] };
    collector.onTestCaseResult({ meta: () => ({ check: meta }), result: () => ({ state: 'passed' }), diagnostic: () => ({ duration: 1 }) } as never);
    expect(collector.results[0]).toMatchObject({ status: 'error', requests: 1, reason: expect.stringMatching(/^2 of the 3 exchanges it recorded did not reach the report/) });
    const whole = new CheckCollector();
    whole.onTestCaseResult({ meta: () => ({ check: { ...meta, id: 'd', exchanges: [answered(401), answered(401), answered(401)] } }), result: () => ({ state: 'passed' }), diagnostic: () => ({ duration: 1 }) } as never);
    expect(whole.results[0]!.status).toBe('passed');
  });
});
