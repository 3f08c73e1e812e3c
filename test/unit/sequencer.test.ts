import { describe, expect, test } from 'vitest';
import { compareSuiteFiles } from '../../src/runner/sequencer.js';

describe('suite file order', () => {
  test.each(['ts', 'js'])('the invariants run last, whatever the extension (.%s)', (extension) => {
    const files = ['validation', 'invariants', 'auth', 'list'].map((name) => `/pkg/suites/${name}.test.${extension}`);
    const names = files.sort(compareSuiteFiles).map((path) => path.replace(/^.*\//, '').split('.')[0]);
    expect(names).toEqual(['auth', 'list', 'validation', 'invariants']);
  });
});
