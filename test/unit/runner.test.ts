import { pathToFileURL } from 'node:url';
import { mkdir, mkdtemp, readdir, readFile, rm, symlink, utimes, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { dirname, join } from 'node:path';
import { describe, expect, test } from 'vitest';
import type { RunSettings } from '../../src/config/settings.js';
import type { CheckMeta } from '../../src/check/types.js';
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
  /** A package whose sources bundle (a suite of one test), bundled at `builtAt` (s since the epoch), edited at `editedAt`. */
  async function pkg(editedAt: number, builtAt: number | undefined): Promise<string> {
    const root = await mkdtemp(join(tmpdir(), 'pcs-suites-'));
    const files: Array<[string, string, number | undefined]> = [
      ['suites/conformance.test.ts', "import { test } from 'vitest';\ntest('x', () => {});\n", editedAt],
      ['src/runner/suite-thread.ts', 'export const thread: number = 1;\n', editedAt],
      ['src/runner/suite-api.ts', 'export const test = (name: string, body: () => void) => body();\n', editedAt],
      ['dist/worker/conformance.test.js', '', builtAt],
    ];
    for (const [path, text, time] of files) {
      if (time === undefined) continue;
      await mkdir(dirname(join(root, path)), { recursive: true });
      await writeFile(join(root, path), text);
      await utimes(join(root, path), time, time);
    }
    return root;
  }

  test('the build\'s bundles when the build is current', async () => {
    const root = await pkg(1_000, 2_000);
    expect(await suiteFiles(false, root)).toEqual({ thread: join(root, 'dist/worker/suite-thread.js'), suite: join(root, 'dist/worker/conformance.test.js') });
  });

  test('bundles of the sources as they are, when a source is newer than its build or was never built; made once per state of the sources', async () => {
    for (const root of [await pkg(2_000, 1_000), await pkg(1_000, undefined)]) {
      const files = await suiteFiles(false, root);
      expect(dirname(files.thread)).toMatch(new RegExp(`^${join(root, 'node_modules/.cache/petstore-conformance/suite-')}[0-9a-f]{16}$`));
      expect(await readFile(files.suite, 'utf8')).toContain("test(\"x\"");
      expect(await readFile(files.thread, 'utf8')).toContain('thread = 1');
      expect(await suiteFiles(false, root)).toEqual(files);
      // An edit is a new state of the sources: bundled again.
      await writeFile(join(root, 'src/runner/suite-thread.ts'), 'export const thread: number = 2;\n');
      const edited = await suiteFiles(false, root);
      expect(edited.thread).not.toBe(files.thread);
      expect(await readFile(edited.thread, 'utf8')).toContain('thread = 2');
      expect(await readdir(join(root, 'node_modules/.cache/petstore-conformance'))).toHaveLength(2);
    }
  });

  test('always the build\'s when the caller itself is compiled (the CLI)', async () => {
    const root = await pkg(2_000, 1_000);
    expect((await suiteFiles(true, root)).thread).toBe(join(root, 'dist/worker/suite-thread.js'));
  });
});

/** A temporary folder whose files resolve the package's dependencies (its node_modules linked in), removed after `body`. */
async function withSuiteFolder(body: (dir: string) => Promise<void>): Promise<void> {
  const dir = await mkdtemp(join(tmpdir(), 'pcs-runner-test-'));
  await symlink(join(packageRoot, 'node_modules'), join(dir, 'node_modules'), 'dir');
  try {
    await body(dir);
  } finally {
    await rm(dir, { recursive: true, force: true });
  }
}

/** The thread a run would load, running the suite `suite` (a file in `dir`). */
const filesIn = async (dir: string, suite: string) => ({ thread: (await suiteFiles()).thread, suite: join(dir, suite) });

/** The metadata of a check that sends nothing. */
const meta = (id: string, runId = 'r1') => ({ check: { id, runId, title: 'sends nothing', clause: '0', level: 'info', requirements: [], exchanges: [], created: [] } });

describe('a conformance class whose module fails to load', () => {
  test('stops the run before any check, with a run error naming the class', async () => {
    await withSuiteFolder(async (dir) => {
      // The suite's own entry, compiled, beside class modules of which one throws.
      const entry = await readFile(join(packageRoot, 'dist/suites/conformance.test.js'), 'utf8');
      const names = [...entry.matchAll(/import\('\.\/([\w-]+)\.js'\)/g)].map((match) => match[1]!);
      for (const name of names) {
        const body = name === 'model' ? `throw new Error('the module is broken');\n` : `import { test } from '@vitest/runner';\nexport default () => test('${name}', { meta: ${JSON.stringify(meta(name))} }, () => {});\n`;
        await writeFile(join(dir, `${name}.js`), body);
      }
      // Its imports of the package's own modules, pointed at the package from the temporary folder, and of vitest at what the thread serves.
      const dist = pathToFileURL(join(packageRoot, 'dist/src')).href;
      await writeFile(join(dir, 'conformance.test.js'), entry.replaceAll("'../src/", `'${dist}/`).replace("from 'vitest'", `from '${dist}/runner/suite-api.js'`));
      const collector = new CheckCollector();
      const suite = await startSuite([{ concurrency: 4, baseUrl: 'http://127.0.0.1:9/v1', runId: 'r1' } as RunSettings], [collector], { files: await filesIn(dir, 'conformance.test.js') });
      expect(await suite.finished).toBeUndefined();
      expect(collector.runErrors).toEqual([`${join(dir, 'conformance.test.js')}: conformance class model did not load: the module is broken`]);
      expect(collector.results).toEqual([]);
    });
  });
});

describe('CheckCollector, a check reported twice', () => {
  test('keeps the exchanges it was first reported with, and prints it once (a cancelled run reports its checks again)', async () => {
    const { answered } = await import('../support/exchanges.js');
    const printed: string[] = [];
    const collector = new CheckCollector((result) => printed.push(`${result.id} ${result.requests}`));
    const meta: CheckMeta = { id: 'c', runId: 'r1', title: 'c', clause: '5', level: 'must', requirements: [], exchanges: [answered(401), answered(401)], created: [] };
    const test = { name: 'c', fullName: 'c', meta, state: 'passed', durationMs: 1 } as const;
    collector.onTestResult(test);
    collector.onTestResult(test);
    expect(collector.exchanges).toHaveLength(2);
    expect(collector.results.map((result) => result.requests)).toEqual([2]);
    expect(printed).toEqual(['c 2']);
  });

  test('a check whose exchanges did not all reach the collector cannot pass (issue 25: 13 checks passed on 1 recorded request)', async () => {
    const { answered } = await import('../support/exchanges.js');
    const collector = new CheckCollector();
    const meta: CheckMeta = { id: 'c', runId: 'r1', title: 'c', clause: '5', level: 'must', requirements: [], exchanges: [answered(401)], recorded: 3, created: [] };
    collector.onTestResult({ name: 'c', fullName: 'c', meta, state: 'passed', durationMs: 1 });
    expect(collector.results[0]).toMatchObject({ status: 'error', requests: 1, reason: expect.stringMatching(/^2 of the 3 exchanges it recorded did not reach the report/) });
    const whole = new CheckCollector();
    whole.onTestResult({ name: 'd', fullName: 'd', meta: { ...meta, id: 'd', exchanges: [answered(401), answered(401), answered(401)] }, state: 'passed', durationMs: 1 });
    expect(whole.results[0]!.status).toBe('passed');
  });
});
