/**
 * `npm run mutations`: a quick mutation pass over the judgements and the rules around
 * them (redaction, renderers, credentials, the verdict policy, fleet and merge). Each
 * mutation loosens or breaks one condition in the sources, runs the tests that must notice
 * it (test/judgements by default, milliseconds each), and restores the file. A mutation the tests do not
 * notice "survives": a condition no test pins down. Prints a table; exits 1 when one
 * survives. (Stryker does this exhaustively; this pass keeps the conditions that decide
 * verdicts honest at a glance.)
 */
import { execFile } from 'node:child_process';
import { readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { parseArgs, promisify } from 'node:util';
import { packageRoot } from '../src/core/package-info.js';
import { MUTATIONS, type Mutation } from './mutation-list.js';

const run = promisify(execFile);

/** Whether the tests fail with the mutation in place. */
async function killed(tests: readonly string[]): Promise<boolean> {
  try {
    // Every test file is eligible, whichever tier (test/tiers.ts) holds it.
    await run(process.execPath, [join(packageRoot, 'node_modules/vitest/vitest.mjs'), 'run', ...tests, '--reporter=dot'], { cwd: packageRoot, env: { ...process.env, PCS_ALL_TESTS: '1' } });
    return false;
  } catch {
    return true;
  }
}

/** The fast tests a fresh sample is judged against (about 25 s here): what a reviewer runs per mutation. */
const SAMPLE_TESTS = ['test/unit', 'test/judgements', 'test/traffic/judge.test.ts'];

/**
 * `npm run mutations -- WORDS`: only the mutations whose file or description holds WORDS.
 * `npm run mutations -- --sample FILE.json`: a fresh sample (scripts/mutation-samples/),
 * each mutation judged against {@link SAMPLE_TESTS} unless it names its own tests.
 * `npm run mutations -- --sample-fresh N --seed S [--slow]`: a sample drawn now from every
 * site of src/ (mutation-sample.ts).
 */
const { values: flags, positionals } = parseArgs({ options: { sample: { type: 'string' }, 'sample-fresh': { type: 'string' }, seed: { type: 'string' }, slow: { type: 'boolean' } }, allowPositionals: true });
if (flags['sample-fresh'] !== undefined) {
  const count = Number(flags['sample-fresh']);
  const seed = Number(flags.seed ?? Date.now() % 2 ** 31);
  if (!Number.isInteger(count) || count < 1 || !Number.isInteger(seed)) {
    process.stderr.write('mutations: --sample-fresh takes a whole number of mutations, --seed a whole number\n');
    process.exit(2);
  }
  const { sampleFresh } = await import('./mutation-sample.js');
  process.exit(await sampleFresh({ count, seed, slow: flags.slow === true, listed: MUTATIONS }));
}
const sample = flags.sample !== undefined ? (JSON.parse(readFileSync(flags.sample, 'utf8')) as Mutation[]).map((m) => ({ ...m, tests: m.tests ?? SAMPLE_TESTS })) : undefined;
const only = sample ? '' : positionals.join(' ');
const rows: Array<[string, string]> = [];
for (const mutation of (sample ?? MUTATIONS).filter((m) => only === '' || `${m.file}: ${m.what}`.includes(only))) {
  const path = join(packageRoot, mutation.file);
  const original = readFileSync(path, 'utf8');
  if (!original.includes(mutation.from)) throw new Error(`${mutation.file}: the mutated text is gone: ${mutation.from}`);
  writeFileSync(path, original.replace(mutation.from, mutation.to));
  try {
    rows.push([(await killed(mutation.tests ?? ['test/judgements'])) ? 'killed' : 'SURVIVED', `${mutation.file}: ${mutation.what}`]);
  } finally {
    writeFileSync(path, original);
  }
  process.stdout.write(`${rows.at(-1)![0].padEnd(9)} ${rows.at(-1)![1]}\n`);
}
const survived = rows.filter(([outcome]) => outcome === 'SURVIVED').length;
process.stdout.write(`\n${rows.length - survived} of ${rows.length} mutations killed\n`);
process.exitCode = survived > 0 ? 1 : 0;
