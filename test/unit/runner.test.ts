import { mkdir, mkdtemp, utimes, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { dirname, join } from 'node:path';
import { describe, expect, test } from 'vitest';
import { compareSuiteFiles } from '../../src/runner/sequencer.js';
import { suiteFiles } from '../../src/runner/suite-files.js';

describe('suite file order', () => {
  test.each(['ts', 'js'])('the invariants run last, whatever the extension (.%s)', (extension) => {
    const files = ['validation', 'invariants', 'auth', 'list'].map((name) => `/pkg/suites/${name}.test.${extension}`);
    const names = files.sort(compareSuiteFiles).map((path) => path.replace(/^.*\//, '').split('.')[0]);
    expect(names).toEqual(['auth', 'list', 'validation', 'invariants']);
  });
});

describe('which suite files a run loads', () => {
  /** A package with one suite and one module, compiled at `builtAt` (s since the epoch), edited at `editedAt`. */
  async function pkg(editedAt: number, builtAt: number | undefined): Promise<string> {
    const root = await mkdtemp(join(tmpdir(), 'pcs-suites-'));
    const files: Array<[string, number | undefined]> = [
      ['suites/a.test.ts', editedAt],
      ['src/x.ts', editedAt],
      ['dist/suites/a.test.js', builtAt],
      ['dist/src/x.js', builtAt],
    ];
    for (const [path, time] of files) {
      if (time === undefined) continue;
      await mkdir(dirname(join(root, path)), { recursive: true });
      await writeFile(join(root, path), '');
      await utimes(join(root, path), time, time);
    }
    return root;
  }

  test('the compiled files, imported natively, when the build is current', async () => {
    const root = await pkg(1_000, 2_000);
    expect(suiteFiles(false, root)).toEqual({ dir: join(root, 'dist/suites'), include: '**/*.test.js', native: true });
  });

  test('the sources, through vitest\'s transform, when a source is newer than its build or was never built', async () => {
    for (const root of [await pkg(2_000, 1_000), await pkg(1_000, undefined)]) {
      expect(suiteFiles(false, root)).toEqual({ dir: join(root, 'suites'), include: '**/*.test.ts', native: false });
    }
  });

  test('always the compiled files when the caller itself is compiled (the CLI)', async () => {
    const root = await pkg(2_000, 1_000);
    expect(suiteFiles(true, root).native).toBe(true);
  });
});
