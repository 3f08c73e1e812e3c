/**
 * The suite's thread (src/runner/suite-thread.ts) and the runner's side of it (suite.ts):
 * what reaches the collectors for each way a test ends, a cancel, a block's end, and the
 * ways a thread fails. Each suite here is a small file of plain vitest tests run by the
 * build's thread.
 */
import { execFile } from 'node:child_process';
import { readFileSync } from 'node:fs';
import { mkdtemp, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { pathToFileURL } from 'node:url';
import { BroadcastChannel } from 'node:worker_threads';
import { describe, expect, onTestFinished, test, vi } from 'vitest';
import type { RunSettings } from '../../src/config/settings.js';
import { packageRoot } from '../../src/core/package-info.js';
import { CheckCollector } from '../../src/runner/collector.js';
import { closeSpareThreads, openSuiteThread, startSuite, type OpenedThread } from '../../src/runner/suite.js';
import { suiteFiles, type SuiteFiles } from '../../src/runner/suite-files.js';
import { NOT_RUN_INTERRUPTED, NOT_SELECTED } from '../../src/check/reasons.js';
import { cli } from '../support/cli-in-process.js';

const SUITE_API = pathToFileURL(join(packageRoot, 'dist/src/runner/suite-api.js')).href;

/** The metadata of a check that sends nothing (JavaScript source). */
const meta = (id: string, runId = 'r1') => JSON.stringify({ check: { id, runId, title: id, clause: '0', level: 'info', requirements: [], exchanges: [], created: [] } });

/**
 * Runs `source` (a suite file, which gets vitest's API as the suite's bundle does) in the
 * suite's thread, for the targets `runIds`, one collector each.
 */
async function runSuite(source: string, { runIds = ['r1'], signal, before }: { runIds?: string[]; signal?: AbortSignal; before?: (files: SuiteFiles) => Promise<void> } = {}) {
  const dir = await mkdtemp(join(tmpdir(), 'pcs-suite-thread-test-'));
  try {
    await writeFile(join(dir, 'suite.test.js'), `import { afterAll, describe, inject, test } from '${SUITE_API}';\n${source}`);
    // The thread a run would load: the build's, or the sources' when a source is newer (the mutation pass).
    const files = { thread: (await suiteFiles()).thread, suite: join(dir, 'suite.test.js') };
    await before?.(files);
    const heard: string[] = [];
    const collectors = runIds.map((runId) => new CheckCollector((result) => heard.push(result.id), () => {}, runId));
    const ended: string[] = [];
    const targets = runIds.map((runId) => ({ concurrency: 4, runId }) as RunSettings);
    const suite = await startSuite(targets, collectors, {
      files,
      onTargetEnd: (collector) => ended.push(`${collector.runId} ended with ${collector.results.length} results`),
      ...(signal ? { signal } : {}),
    });
    const stopped = await suite.finished;
    return { collectors, ended, stopped, heard, result: (id: string) => collectors.flatMap((c) => c.results).find((r) => r.id === id) };
  } finally {
    await rm(dir, { recursive: true, force: true });
  }
}

describe('each way a test ends reaches the collector', () => {
  test('passed, failed (an error without a finding), skipped by itself (with its reason), filtered out (skip), and the targets provided; each heard as it ends', async () => {
    const { collectors, result, heard } = await runSuite(`
      for (const target of inject('runs')) describe(target.runId, () => {
        test('p', { meta: ${meta('p')} }, () => {});
        test('f', { meta: ${meta('f')} }, () => { throw new Error('it broke'); });
        // It works 5 ms or more (by the clock it is measured with) before it skips itself.
        test('s', { meta: ${meta('s')} }, ({ task, skip }) => { const t0 = performance.now(); while (performance.now() - t0 < 5); task.meta.check.outcome = { status: 'skipped', reason: 'its own reason' }; skip('its own reason'); });
        test.skip('x', { meta: ${meta('x')} }, () => {});
      });`);
    expect(collectors[0]!.runErrors).toEqual([]);
    expect(collectors[0]!.results.map((r) => r.id)).toEqual(['p', 'f', 's', 'x']);
    expect(result('p')!.status).toBe('passed');
    expect(result('f')).toMatchObject({ status: 'error', reason: 'it broke' });
    expect(result('s')).toMatchObject({ status: 'skipped', reason: 'its own reason' });
    expect(result('x')).toMatchObject({ status: 'skipped', reason: NOT_SELECTED });
    // One never run took no time: 0 ms, not a guess; one that skipped itself, the time it ran.
    expect(result('x')!.durationMs).toBe(0);
    expect(result('s')!.durationMs).toBeGreaterThanOrEqual(5);
    // In the order they ended, not held back to the block's end.
    expect(heard).toEqual(['p', 'f', 's', 'x']);
  });

  test('a test not declared with check() is a run error, named', async () => {
    const { collectors } = await runSuite(`describe('block', () => test('bare', () => {}));`);
    expect(collectors[0]!.runErrors, JSON.stringify(collectors[0]!.runErrors)).toEqual(['suite test "block bare" is not declared with check()']);
  });
});

describe('a lane of targets', () => {
  test('each target\'s block reports its end before the run\'s, with all its checks; a nested describe is no target\'s end', async () => {
    const check = (id: string) => `test('${id}', { meta: { check: { ...${meta(id)}.check, runId: target.runId } } }, () => {})`;
    const { ended, collectors } = await runSuite(
      `for (const target of inject('runs')) describe(target.runId, () => { describe('x', () => ${check('c1')}); describe('y', () => ${check('c2')}); });`,
      { runIds: ['a', 'b'] },
    );
    // Both blocks are heard, each once, whole (the last target's, lane.ts finishes with the run).
    expect(ended).toEqual(['a ended with 2 results', 'b ended with 2 results']);
    expect(collectors.map((c) => c.results.length)).toEqual([2, 2]);
  });

  test('near miss: a target\'s block that never runs (skipped) does not end as a block, nor does the file\'s end count as one: its checks are accounted with the run\'s end', async () => {
    const { ended, result } = await runSuite(
      `describe.skip('a', () => test('c', { meta: ${meta('c', 'a')} }, () => {})); describe('b', () => test('d', { meta: ${meta('d', 'b')} }, () => {}));`,
      { runIds: ['a', 'b'] },
    );
    expect(ended).toEqual(['b ended with 1 results']);
    expect(result('c')!.status).toBe('skipped');
  });
});

describe('a cancelled run', () => {
  test('the test under way sees its signal abort; those after it do not start, and are reported skipped as not run', async () => {
    // The test under way says it started (a BroadcastChannel reaches every thread): the run is cancelled then.
    const started = new BroadcastChannel('pcs-suite-thread-test');
    const stop = new AbortController();
    started.onmessage = () => stop.abort('interrupted by SIGINT');
    try {
      const { collectors, stopped, result } = await runSuite(
        `describe('t', () => {
          test('under-way', { meta: ${meta('under-way')} }, ({ signal }) => new Promise((_, reject) => {
            signal.addEventListener('abort', () => reject(signal.reason));
            new BroadcastChannel('pcs-suite-thread-test').postMessage('started');
          }));
          test('after', { meta: ${meta('after')} }, () => {});
        });`,
        { signal: stop.signal },
      );
      expect(stopped).toBe('interrupted by SIGINT');
      expect(collectors[0]!.interrupted).toBe(true);
      expect(result('under-way')).toMatchObject({ status: 'skipped', reason: NOT_RUN_INTERRUPTED });
      expect(result('after')).toMatchObject({ status: 'skipped', reason: NOT_RUN_INTERRUPTED, durationMs: 0 });
    } finally {
      started.close();
    }
  });

  test('a cancel while the file is collected (no check under way): no check starts', async () => {
    const collecting = new BroadcastChannel('pcs-suite-thread-test');
    const stop = new AbortController();
    collecting.onmessage = () => stop.abort('interrupted by SIGINT');
    try {
      // The block waits for the next message to the thread: the cancel, which the thread hears first.
      const { result } = await runSuite(
        `describe('t', async () => {
          const { parentPort } = await import('node:worker_threads');
          const heard = new Promise((resolve) => parentPort.once('message', resolve));
          new BroadcastChannel('pcs-suite-thread-test').postMessage('collecting');
          await heard;
          test('after', { meta: ${meta('after')} }, () => {});
        });`,
        { signal: stop.signal },
      );
      expect(result('after')).toMatchObject({ status: 'skipped', reason: NOT_RUN_INTERRUPTED });
    } finally {
      collecting.close();
    }
  });

  test('near miss: a signal aborted before the start starts no thread, and says why', async () => {
    const { collectors, stopped } = await runSuite(`throw new Error('never loaded');`, { signal: AbortSignal.abort('interrupted by SIGTERM') });
    expect(stopped).toBe('interrupted by SIGTERM');
    expect(collectors[0]!.runErrors).toEqual([]);
  });
});

describe('failures of the thread', () => {
  test('a rejection nobody awaits is a run error; what the suite prints is kept, not printed', async () => {
    const printed: string[] = [];
    const write = process.stdout.write.bind(process.stdout);
    // What reaches this process's stdout while the thread runs (piped there, were it not kept).
    const spy = vi.spyOn(process.stdout, 'write').mockImplementation((chunk: string | Uint8Array, ...rest: unknown[]) => (printed.push(String(chunk)), (write as (...args: unknown[]) => boolean)(chunk, ...rest)));
    const { collectors } = await runSuite(`test('c', { meta: ${meta('c')} }, () => { console.log('printed by the suite'); void Promise.reject(new Error('nobody awaits')); });`).finally(() => spy.mockRestore());
    expect(printed.filter((chunk) => chunk.includes('printed by the suite'))).toEqual([]);
    expect(collectors[0]!.runErrors).toEqual(['the tool failed: an error nobody caught: Error: nobody awaits']);
    expect(collectors[0]!.results).toHaveLength(1);
  });

  test('a suite file that throws at load: its error, and no check', async () => {
    const { collectors } = await runSuite(`throw new Error('thrown at load');`);
    expect(collectors[0]!.runErrors).toEqual([expect.stringMatching(/suite\.test\.js: thrown at load$/)]);
    expect(collectors[0]!.results).toEqual([]);
  });

  test('a thread that ends before its run did: the tool failed, said so', async () => {
    const { collectors } = await runSuite(`test('c', { meta: ${meta('c')} }, () => process.exit(7));`);
    expect(collectors[0]!.runErrors).toEqual(["the suite did not run: the tool failed: the suite's thread ended before its run did (exit code 7)"]);
  });

  test('near miss: output without any result is the reason the suite did not run', async () => {
    const { collectors } = await runSuite(`console.error('first line of why\\nsecond'); describe('empty', () => {});`);
    expect(collectors[0]!.runErrors).toContain('the suite did not run: first line of why');
  });
});

describe('a thread opened ahead of its run (the CLI opens one before it reads its configuration)', () => {
  /** A check that skips itself with the id of the thread it ran in. */
  const threadIdSuite = `test('id', { meta: ${meta('id')} }, async ({ task, skip }) => {
    const { threadId } = await import('node:worker_threads');
    task.meta.check.outcome = { status: 'skipped', reason: 'thread ' + threadId };
    skip('thread ' + threadId);
  });`;

  test('a run with the same bundles takes it: its checks run in that thread, given their targets', async () => {
    let opened: OpenedThread | undefined;
    const { result, collectors } = await runSuite(`describe(inject('runs')[0].runId, () => { ${threadIdSuite} });`, { before: async (files) => void (opened = await openSuiteThread(files)) });
    expect(collectors[0]!.runErrors).toEqual([]);
    expect(result('id')!.reason).toBe(`thread ${opened!.threadId}`);
    // Once its run has ended, the thread is gone.
    await opened!.gone;
  });

  test('near miss: a run with other bundles opens its own; the one opened ahead waits until closed', async () => {
    let opened: OpenedThread | undefined;
    const other = await mkdtemp(join(tmpdir(), 'pcs-suite-thread-test-'));
    try {
      const { result } = await runSuite(threadIdSuite, { before: async (files) => void (opened = await openSuiteThread({ ...files, suite: join(other, 'suite.test.js') })) });
      expect(result('id')!.reason).toMatch(/^thread \d+$/);
      expect(result('id')!.reason).not.toBe(`thread ${opened!.threadId}`);
      let gone = false;
      void opened!.gone.then(() => (gone = true));
      await new Promise((resolve) => setImmediate(resolve));
      expect(gone).toBe(false);
      await closeSpareThreads();
      await opened!.gone;
    } finally {
      await rm(other, { recursive: true, force: true });
    }
  });

  test('one whose module throws while it waits does not bring the host down: the run that takes it says the tool failed', async () => {
    const dir = await mkdtemp(join(tmpdir(), 'pcs-suite-thread-test-'));
    try {
      const thread = join(dir, 'thread.js');
      await writeFile(thread, `throw new Error('thrown while loading');`);
      const files = { thread, suite: join(dir, 'suite.test.js') };
      const opened = await openSuiteThread(files);
      await opened.gone;
      const collector = new CheckCollector(() => {}, () => {}, 'r1');
      const suite = await startSuite([{ concurrency: 4, runId: 'r1' } as RunSettings], [collector], { files });
      await suite.finished;
      expect(collector.runErrors).toEqual(["the suite did not run: the tool failed: the suite's worker failed: thrown while loading"]);
    } finally {
      await rm(dir, { recursive: true, force: true });
    }
  });

  test('one never taken keeps no process alive', async () => {
    const module = pathToFileURL(join(packageRoot, 'dist/src/runner/suite.js')).href;
    const { code, stdout } = await new Promise<{ code: number | null; stdout: string }>((resolve) => {
      const child = execFile(process.execPath, ['--input-type=module', '-e', `const { openSuiteThread } = await import('${module}'); await openSuiteThread(); console.log('opened');`], (error, out) =>
        resolve({ code: error ? (error.code as number) : 0, stdout: out }),
      );
      // A child that never ends (the failure this test is for) is stopped with the test, not left behind.
      onTestFinished(() => void child.kill('SIGKILL'));
    });
    expect({ code, stdout }).toEqual({ code: 0, stdout: 'opened\n' });
  });

  test.runIf(process.platform === 'linux')('the CLI ends the thread it opened when its run never takes it: four usage errors leave no thread behind', async () => {
    // The process's threads, as Linux counts them: a thread left open is one more each time.
    const threads = () => Number(/^Threads:\s+(\d+)/m.exec(readFileSync('/proc/self/status', 'utf8'))![1]);
    // A base URL without a key: refused once the run's options are read, after the thread is opened.
    const refused = async () => expect((await cli(['run', '--base-url', 'http://127.0.0.1:1/v1'], { cwd: tmpdir(), env: {} })).code).toBe(2);
    await refused(); // the first also starts what the process keeps (libuv's pool)
    const before = threads();
    for (let i = 0; i < 4; i++) await refused();
    expect(threads() - before).toBeLessThanOrEqual(1);
  });
});

