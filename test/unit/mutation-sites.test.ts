/**
 * The fresh sampler's site lister (scripts/mutation-sites.ts) and its score interval
 * (scripts/mutation-sample.ts): each of the seven operator classes found where it applies,
 * and nowhere it would not compile or not matter.
 */
import { describe, expect, test, vi } from 'vitest';
import { applied, linesAround, sitesOf } from '../../scripts/mutation-sites.js';
import { existsSync, mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { bounded, confirmedKill, fastTier, NOT_KILLERS, timedOut, wilson } from '../../scripts/mutation-sample.js';
import { GROUND_TESTS, SLOW_TESTS } from '../tiers.js';

const SOURCE = `import { x } from './x.js';
type Kind = 'a' | 'b';
export function f(n: number, ok: boolean): void {
  if (n < 2 && ok) console.log('small');
  const kind: Kind = 'a';
  log(n === 0 ? true : false);
}
const g = (s: string): number => s.length;
`;

describe('sitesOf', () => {
  const sites = sitesOf('src/f.ts', SOURCE, (fn) => fn.name?.getText() === 'f');
  const of = (operator: string) => sites.filter((site) => site.operator === operator).map((site) => site.what);

  test('each class where it applies', () => {
    expect(of('comparison flipped')).toEqual(['< -> <=', '=== -> !==']);
    expect(of('logical operator swapped')).toEqual(['&& -> ||']);
    expect(of('condition negated')).toEqual(['condition negated', 'condition negated']);
    expect(of('constant changed')).toEqual(['2 -> 3', '2 -> 1', '0 -> 1', 'true -> false', 'false -> true']);
    // The if's own statement is no block's: removing it would not compile.
    expect(of('statement removed')).toEqual(['statement deleted']);
    expect(of('early return')).toEqual(['return at the start']);
    expect(of('string changed')).toEqual(["'small' -> ''", "'a' -> ''"]);
  });

  test('near misses: no string of an import or a type, no early return where a value is returned', () => {
    expect(sites.some((site) => site.what.startsWith("'./x.js'") || site.what.startsWith("'b'"))).toBe(false);
    expect(sites.filter((site) => site.operator === 'early return')).toHaveLength(1);
    // Before f's first statement.
    expect(sites.find((site) => site.operator === 'early return')!.line).toBe(4);
  });

  test('a site applied, and the lines it touches before and after', () => {
    const flip = sites.find((site) => site.what === '< -> <=')!;
    expect(applied(SOURCE, flip)).toContain('if (n <= 2 && ok)');
    expect(linesAround(SOURCE, flip)).toEqual({ from: "  if (n < 2 && ok) console.log('small');", to: "  if (n <= 2 && ok) console.log('small');" });
  });
});

test('wilson: the 95 % interval of a score, and its edges', () => {
  const [low, high] = wilson(54, 60);
  expect([+low.toFixed(3), +high.toFixed(3)]).toEqual([0.799, 0.953]);
  expect(wilson(0, 0)).toEqual([0, 1]);
  expect(wilson(3, 3)[1]).toBe(1);
  expect(wilson(0, 3)[0]).toBe(0);
});

describe('confirmedKill: a kill counts only when its test passes on the unmutated build (issue 60)', () => {
  const rerun = (outcome: 'passed' | 'failed' | 'timed out') => {
    const asked: string[] = [];
    return { asked, run: async (file: string) => (asked.push(file), outcome) };
  };
  test('the file passes unmutated: the kill counts', async () => {
    const { asked, run } = rerun('passed');
    expect(await confirmedKill('test/unit/a.test.ts', run)).toEqual({ by: 'test/unit/a.test.ts' });
    expect(asked).toEqual(['test/unit/a.test.ts']);
  });
  test('near miss: it fails unmutated too (a test that moves with load): no kill', async () => {
    expect(await confirmedKill('test/unit/a.test.ts', rerun('failed').run)).toEqual({ unconfirmed: 'test/unit/a.test.ts fails on the unmutated build too' });
    expect(await confirmedKill('test/unit/a.test.ts', rerun('timed out').run)).toEqual({ unconfirmed: 'test/unit/a.test.ts never ends on the unmutated build too' });
  });
  test('a bound reached (an endless loop) counts without a run; a survivor asks for none', async () => {
    const { asked, run } = rerun('failed');
    expect(await confirmedKill(timedOut(60_000), run)).toEqual({ by: timedOut(60_000) });
    expect(await confirmedKill(undefined, run)).toEqual({});
    expect(asked).toEqual([]);
  });
});

test('the sampler’s fast tier is npm test’s, without the check of the list’s own text', () => {
  const files = fastTier();
  expect(files).toContain('test/unit/load.test.ts');
  for (const file of [...NOT_KILLERS, ...SLOW_TESTS, ...GROUND_TESTS]) expect(files).not.toContain(file);
});

describe('bounded: one group of tests against a mutation, in a process group of its own', () => {
  const node = (code: string) => ['-e', code];
  test('exit 0 passes, any other exit fails', async () => {
    expect(await bounded(node('process.exit(0)'), process.env, 600_000)).toBe('passed');
    expect(await bounded(node('process.exit(1)'), process.env, 600_000)).toBe('failed');
  });

  test('a run that never ends is stopped at the bound: an endless loop counts as killed', async () => {
    expect(await bounded(node('setInterval(() => {}, 1000)'), process.env, 50)).toBe('timed out');
  });

  test('the workers it leaves behind are stopped with it', async () => {
    const dir = mkdtempSync(join(tmpdir(), 'bounded-'));
    try {
      const pidFile = join(dir, 'worker.pid');
      // The runner starts a worker that never ends (as vitest's spinning workers did), then fails.
      const runner = `const { spawn } = require('node:child_process'); const w = spawn(process.execPath, ['-e', 'setInterval(() => {}, 1000)'], { stdio: 'ignore' }); require('node:fs').writeFileSync(${JSON.stringify(pidFile)}, String(w.pid)); process.exit(1);`;
      expect(await bounded(node(runner), process.env, 600_000)).toBe('failed');
      const pid = Number(readFileSync(pidFile, 'utf8'));
      // Gone, or a zombie that nothing reaps in this container: either way it runs no more.
      const stopped = () => !existsSync(`/proc/${pid}`) || / [ZX] /.test(readFileSync(`/proc/${pid}/stat`, 'utf8').replace(/^.*\)/, ''));
      await vi.waitFor(() => expect(stopped()).toBe(true), { timeout: 60_000, interval: 20 });
    } finally {
      rmSync(dir, { recursive: true, force: true });
    }
  });
});

/**
 * Comparisons against a named bound that a move by one cannot change, each with why: at
 * the bound itself the guarded step does nothing (it takes zero bytes more), or the bound
 * only sizes work whose outcome is the same either side (a cache, a batch, which thread).
 */
const EQUIVALENT_BOUNDS: Record<string, string> = {
  'src/http/body-reader.ts: this.#preview.byteLength < PREVIEW_BYTES': 'at the bound, the preview takes zero bytes more',
  'src/http/dispatcher.ts: head.length < VERSION_BYTES': 'at the bound, the socket’s own read is back: the patched one is not called again',
  'src/traffic/bounded-tokens.ts: parts.length >= MAX_PARTS': 'only when pieces are joined into a block: the value is the same',
  'src/traffic/har-pieces.ts: this.#head.length < HAR_START_BYTES': 'at the bound, the start takes zero bytes more',
  'src/traffic/har-pieces.ts: size >= THREAD_FROM_BYTES': 'which thread reads a file: the items are the same (har-reader.test.ts reads every case both ways)',
  'src/traffic/har-read-thread.ts: bytes >= BATCH_BYTES': 'where a batch ends: the pieces and their order are the same',
  'src/secrets/redactor.ts: value.length <= CACHED_TEXT_CHARS': 'whether a redacted text is remembered: the result is the same',
  'src/secrets/redactor.ts: this.#doneChars + value.length > CACHED_CHARS': 'when the memory of redacted texts starts over: the results are the same',
};

describe('npm run mutations\' list (scripts/mutation-list.ts)', async () => {
  const { readFileSync } = await import('node:fs');
  const { join } = await import('node:path');
  const { packageRoot } = await import('../../src/core/package-info.js');
  const { MUTATIONS } = await import('../../scripts/mutation-list.js');
  test('every listed mutation still finds its text in its file, and changes it: a stale one would stop the pass', () => {
    const stale = MUTATIONS.filter(({ file, from, to }) => from === to || !readFileSync(join(packageRoot, file), 'utf8').includes(from)).map(({ file, what }) => `${file}: ${what}`);
    expect(stale).toEqual([]);
    expect(MUTATIONS.length).toBeGreaterThanOrEqual(270);
  });

  test('every comparison against a named bound in src/http, src/traffic and src/secrets is moved by one of them (issue 60 §1)', async () => {
    const { readdirSync } = await import('node:fs');
    const { boundComparisons } = await import('../../scripts/mutation-sites.js');
    const unlisted: string[] = [];
    for (const dir of ['src/http', 'src/traffic', 'src/secrets']) {
      for (const name of readdirSync(join(packageRoot, dir), { recursive: true, encoding: 'utf8' }).filter((name) => name.endsWith('.ts'))) {
        const file = `${dir}/${name}`;
        const mutations = MUTATIONS.filter((mutation) => mutation.file === file);
        for (const { line, text } of boundComparisons(file, readFileSync(join(packageRoot, file), 'utf8'))) {
          if (!mutations.some(({ from }) => from.includes(text)) && !EQUIVALENT_BOUNDS[`${file}: ${text}`]) unlisted.push(`${file}:${line} ${text}`);
        }
      }
    }
    expect(unlisted).toEqual([]);
  });

  test('boundComparisons: an ordering beside a capitalised constant; near misses: an equality, a constant in lower case, two letters', async () => {
    const { boundComparisons } = await import('../../scripts/mutation-sites.js');
    const code = 'const a = n > MAX_ITEMS; const b = n <= SETTINGS.BODY_BYTES; const c = n === MAX_ITEMS; const d = n < maxItems; const e = n < AB;';
    expect(boundComparisons('x.ts', code).map(({ text, bound }) => `${text} (${bound})`)).toEqual(['n > MAX_ITEMS (MAX_ITEMS)', 'n <= SETTINGS.BODY_BYTES (BODY_BYTES)']);
  });
});
