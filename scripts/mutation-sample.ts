/**
 * `npm run mutations -- --sample-fresh N --seed S [--slow]`: a fresh sample anyone can draw
 * (issue 47). Every mutable site of src/ is listed with the TypeScript compiler
 * (mutation-sites.ts, seven operator classes); each draw takes a class uniformly, then a
 * site uniformly within it, from fast-check's generator seeded by S, so a seed chosen after
 * the work is a sample the tests have never seen. A draw that does not compile is drawn
 * again. Each mutation is built (`npm run build`: the type check and the bundles the CLI
 * tests run) and run against the fast tier, the test files that import its module first,
 * stopping at the first failure; with `--slow`, a survivor then meets the slow tier. A kill
 * counts only when the file that failed passes on the unmutated build, run again alone
 * (issue 60: a test that fails under load is no kill), and never by the check of the
 * mutation list's own text (NOT_KILLERS). Prints
 * each outcome, the score with its 95 % interval, and writes the sample to
 * scripts/mutation-samples/. Sources are restored after each mutation, and on Ctrl-C.
 */
import { spawn } from 'node:child_process';
import { existsSync, mkdirSync, readdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { join, relative } from 'node:path';
import fc from 'fast-check';
import ts from 'typescript';
import { packageRoot } from '../src/core/package-info.js';
import { GROUND_TESTS, SLOW_TESTS } from '../test/tiers.js';
import { applied, linesAround, OPERATOR_CLASSES, sitesOf, type Site } from './mutation-sites.js';

/** A mutation drawn, and what met it. */
export interface SampledMutation {
  file: string;
  line: number;
  operator: string;
  what: string;
  from: string;
  to: string;
  /** Where the same mutation was listed before (`npm run mutations`' list, an earlier sample file): it is run all the same. */
  seenBefore?: string;
  result: 'killed by the fast tier' | 'killed by the slow tier' | 'survived';
  /** The test file that failed first, or {@link timedOut} when the tests never ended. */
  by?: string;
  /** A file that failed against the mutation and again without it: no kill (see {@link confirmedKill}). */
  unconfirmed?: string;
}

/** What a sample is measured against, per mutation. */
export interface SampleOptions {
  count: number;
  seed: number;
  slow: boolean;
  /** Mutations listed already (file, mutated text): a draw among them is marked. */
  listed: ReadonlyArray<{ file: string; from: string; to: string }>;
}

/**
 * How long one group of test files may run against a mutation, in ms: 8 minutes for the
 * fast tier, over five times its whole run on this machine (some 80 s quiet), so load never
 * reaches it; 40 for the slow tier (some 7 minutes). A mutant that makes a loop endless never
 * lets `npm test` end, and CI's own bound fails it: it is killed, as any failure is. A build
 * gets the fast tier's bound, and one that does not end is drawn again, as a failed build is.
 */
export const GROUP_BOUND_MS = { fast: 8 * 60_000, slow: 40 * 60_000 } as const;

/** What a mutation the tests never finished against is killed by. */
export const timedOut = (boundMs: number) => `no end within ${boundMs / 60_000} minutes (an endless loop: the tests never end)`;

/** The process groups running now, killed on Ctrl-C with the sampler. */
const running = new Set<number>();

/** Draws and runs a fresh sample. @returns the exit code: 0 when every mutation was killed, 1 otherwise. */
export async function sampleFresh(options: SampleOptions): Promise<number> {
  const program = sourceProgram();
  const checker = program.getTypeChecker();
  const returnsNothing = (fn: ts.SignatureDeclaration) => {
    const signature = checker.getSignatureFromDeclaration(fn);
    if (!signature) return false;
    const returned = checker.getReturnTypeOfSignature(signature);
    const awaited = checker.getAwaitedType(returned) ?? returned;
    return (awaited.flags & (ts.TypeFlags.Void | ts.TypeFlags.Undefined)) !== 0;
  };
  const files = program.getSourceFiles().filter((file) => relative(packageRoot, file.fileName).startsWith('src/') && !file.isDeclarationFile);
  const byClass = new Map(OPERATOR_CLASSES.map((operator) => [operator, [] as Site[]]));
  for (const file of files) for (const site of sitesOf(relative(packageRoot, file.fileName), file, returnsNothing)) byClass.get(site.operator)!.push(site);
  const total = [...byClass.values()].reduce((sum, sites) => sum + sites.length, 0);
  process.stdout.write(`${total} mutable sites in ${files.length} files of src/: ${[...byClass].map(([operator, sites]) => `${operator} ${sites.length}`).join(', ')}\nseed ${options.seed}, ${options.count} mutations\n\n`);

  const earlier = earlierSamples();
  const drawn = new Set<string>();
  const sample: SampledMutation[] = [];
  const draws = fc.sample(fc.noBias(fc.tuple(fc.nat({ max: OPERATOR_CLASSES.length - 1 }), fc.nat({ max: 2 ** 31 - 1 }))), { seed: options.seed, numRuns: options.count * 50 });
  let current: { path: string; original: string } | undefined;
  const restore = () => current && writeFileSync(current.path, current.original);
  const onSignal = () => {
    for (const pid of running) killGroup(pid);
    restore();
    process.stderr.write('\nmutations: stopped; the source restored (run `npm run build` before the tests)\n');
    process.exit(130);
  };
  process.once('SIGINT', onSignal);
  try {
    for (const [classIndex, at] of draws) {
      if (sample.length === options.count) break;
      const sites = byClass.get(OPERATOR_CLASSES[classIndex]!)!;
      if (sites.length === 0) continue;
      const site = sites[Math.floor((at / 2 ** 31) * sites.length)]!;
      const key = `${site.file}:${site.start}:${site.replacement}`;
      if (drawn.has(key)) continue;
      drawn.add(key);
      const path = join(packageRoot, site.file);
      const original = readFileSync(path, 'utf8');
      const mutated = applied(original, site);
      if (!compiles(program, path, mutated)) continue;
      current = { path, original };
      writeFileSync(path, mutated);
      try {
        if (!(await builds())) continue;
        const { from, to } = linesAround(original, site);
        // Listed entries hold a part of the lines: the part changed as they change it (a deletion's empty `to` alone matches anything).
        const seenBefore = options.listed.some((m) => m.file === site.file && m.from.trim() !== '' && from.includes(m.from.trim()) && !to.includes(m.from.trim()) && to.includes(m.to.trim())) ? 'npm run mutations' : earlier.find((s) => s.entries.some((m) => m.file === site.file && m.from === from && m.to === to))?.name;
        let outcome = await killer(site.file, fastTier());
        let result: SampledMutation['result'] = outcome ? 'killed by the fast tier' : 'survived';
        if (!outcome && options.slow) {
          outcome = await killer(site.file, slowTier(), 'vitest.slow.config.ts');
          if (outcome) result = 'killed by the slow tier';
        }
        // Run again alone on the unmutated build: a file that fails there too killed nothing.
        const confirmed = await confirmedKill(outcome, async (test) => {
          restore();
          if (!(await builds())) return 'failed';
          const slow = result === 'killed by the slow tier';
          return bounded([join(packageRoot, 'node_modules/vitest/vitest.mjs'), 'run', test, ...(slow ? ['--config', 'vitest.slow.config.ts'] : [])], { ...process.env, PCS_ALL_TESTS: slow ? '1' : '' }, slow ? GROUP_BOUND_MS.slow : GROUP_BOUND_MS.fast);
        });
        if (confirmed.unconfirmed) result = 'survived';
        sample.push({ file: site.file, line: site.line, operator: site.operator, what: site.what, from, to, ...(seenBefore ? { seenBefore } : {}), result, ...confirmed });
        process.stdout.write(`${String(sample.length).padStart(3)} ${result.padEnd(24)} ${site.file}:${site.line} ${site.operator}: ${site.what}${confirmed.by ? ` (${confirmed.by})` : ''}${confirmed.unconfirmed ? ` (not counted: ${confirmed.unconfirmed})` : ''}${seenBefore ? ` [seen before: ${seenBefore}]` : ''}\n`);
      } finally {
        restore();
        current = undefined;
      }
    }
  } finally {
    process.off('SIGINT', onSignal);
    await builds();
  }
  const killed = sample.filter((m) => m.result !== 'survived').length;
  const byFast = sample.filter((m) => m.result === 'killed by the fast tier').length;
  const [low, high] = wilson(byFast, sample.length);
  process.stdout.write(`\n${byFast} of ${sample.length} killed by the fast tier (npm test): ${percent(byFast / sample.length)}, 95 % interval ${percent(low)}–${percent(high)}${options.slow ? `; ${killed} of ${sample.length} by both tiers` : ''}\n`);
  const out = join(packageRoot, 'scripts/mutation-samples', `${new Date().toISOString().slice(0, 10)}-seed-${options.seed}.json`);
  writeFileSync(out, `${JSON.stringify(sample, null, 1)}\n`);
  process.stdout.write(`Written: ${relative(packageRoot, out)}\n`);
  return killed === sample.length ? 0 : 1;
}

/**
 * The Wilson score interval of a proportion at 95 % (z = 1.96): [low, high].
 * Source: E. B. Wilson, "Probable inference…", JASA 22 (1927).
 */
export function wilson(successes: number, trials: number): [number, number] {
  if (trials === 0) return [0, 1];
  const z = 1.96;
  const p = successes / trials;
  const centre = (p + (z * z) / (2 * trials)) / (1 + (z * z) / trials);
  const half = (z / (1 + (z * z) / trials)) * Math.sqrt((p * (1 - p)) / trials + (z * z) / (4 * trials * trials));
  return [Math.max(0, centre - half), Math.min(1, centre + half)];
}

const percent = (share: number) => `${(share * 100).toFixed(1)} %`;

/** The project's program (tsconfig.json): the sites' files, and the type checker an early return needs. */
function sourceProgram(): ts.Program {
  const configPath = join(packageRoot, 'tsconfig.json');
  const config = ts.parseJsonConfigFileContent(ts.readConfigFile(configPath, ts.sys.readFile).config, ts.sys, packageRoot);
  return ts.createProgram({ rootNames: config.fileNames, options: { ...config.options, noEmit: true } });
}

/** Whether `path` with `text` in place type-checks (that file alone, on the program as it was: a draw that does not is drawn again). */
function compiles(program: ts.Program, path: string, text: string): boolean {
  const host = ts.createCompilerHost(program.getCompilerOptions());
  const read = host.getSourceFile.bind(host);
  host.getSourceFile = (fileName, language, onError, fresh) => (fileName === path ? ts.createSourceFile(fileName, text, language, true) : (program.getSourceFile(fileName) ?? read(fileName, language, onError, fresh)));
  const next = ts.createProgram({ rootNames: program.getRootFileNames(), options: program.getCompilerOptions(), host, oldProgram: program });
  const file = next.getSourceFile(path)!;
  return next.getSyntacticDiagnostics(file).length === 0 && next.getSemanticDiagnostics(file).length === 0;
}

/** `npm run build` with the mutation in place: false when it fails (the draw is drawn again). */
async function builds(): Promise<boolean> {
  return (await bounded([join(packageRoot, 'scripts/build.mjs')], process.env, GROUP_BOUND_MS.fast)) === 'passed';
}

/** Test files whose failure is no kill: the check that every listed mutation still finds its text, which fails on any edit of a listed line. */
export const NOT_KILLERS: readonly string[] = ['test/unit/mutation-sites.test.ts'];

/** Every test file of the fast tier (what `npm test` runs), those in {@link NOT_KILLERS} aside. */
export function fastTier(): string[] {
  const files: string[] = [];
  const walk = (dir: string) => {
    for (const entry of readdirSync(join(packageRoot, dir), { withFileTypes: true })) {
      const path = `${dir}/${entry.name}`;
      if (entry.isDirectory()) walk(path);
      else if (path.endsWith('.test.ts') && !SLOW_TESTS.includes(path) && !GROUND_TESTS.includes(path) && !NOT_KILLERS.includes(path)) files.push(path);
    }
  };
  walk('test');
  return files.sort();
}

/** The slow tier's files, those in {@link NOT_KILLERS} aside. */
function slowTier(): string[] {
  return SLOW_TESTS.filter((path) => !NOT_KILLERS.includes(path));
}

/**
 * Whether a kill counts (issue 60, section 3): a test file that failed against the mutation
 * is run again alone on the unmutated build, and the kill counts only when it passes there.
 * A kill by a bound (an endless loop) or by vitest itself has no file to run again, and counts.
 * @param by what killed the mutation: a test file, another reason, or undefined (it survived).
 * @param rerun runs one test file on the unmutated build.
 * @returns `{ by }` for a kill that counts, `{ unconfirmed }` for one that does not, `{}` for none.
 */
export async function confirmedKill(by: string | undefined, rerun: (file: string) => Promise<'passed' | 'failed' | 'timed out'>): Promise<{ by?: string; unconfirmed?: string }> {
  if (by === undefined) return {};
  if (!by.endsWith('.test.ts')) return { by };
  const again = await rerun(by);
  return again === 'passed' ? { by } : { unconfirmed: `${by} ${again === 'failed' ? 'fails' : 'never ends'} on the unmutated build too` };
}

/**
 * Runs `tests` against the mutation, those that import its module (`traffic/proxy.js`)
 * first, each group stopping at its first failure.
 * @returns the first test file that failed, or undefined when none did.
 */
async function killer(file: string, tests: readonly string[], config?: string): Promise<string | undefined> {
  const module = file.replace(/^src\//, '').replace(/\.ts$/, '.js');
  const nearest = tests.filter((test) => readFileSync(join(packageRoot, test), 'utf8').includes(module));
  for (const group of [nearest, tests.filter((test) => !nearest.includes(test))]) {
    if (group.length === 0) continue;
    const report = join(packageRoot, 'reports', 'mutation-vitest.json');
    mkdirSync(join(packageRoot, 'reports'), { recursive: true });
    rmSync(report, { force: true });
    const args = [join(packageRoot, 'node_modules/vitest/vitest.mjs'), 'run', ...group, '--bail=1', '--reporter=json', `--outputFile=${report}`, ...(config ? ['--config', config] : [])];
    const bound = config ? GROUP_BOUND_MS.slow : GROUP_BOUND_MS.fast;
    const ended = await bounded(args, { ...process.env, PCS_ALL_TESTS: config ? '1' : '' }, bound);
    if (ended === 'timed out') return timedOut(bound);
    if (ended === 'failed') {
      if (!existsSync(report)) return 'vitest itself (no report)';
      const results = (JSON.parse(readFileSync(report, 'utf8')) as { testResults: Array<{ name: string; status: string }> }).testResults;
      const failed = results.find((result) => result.status === 'failed');
      return failed ? relative(packageRoot, failed.name) : 'vitest itself';
    }
  }
  return undefined;
}

/**
 * Runs node with `args` in its own process group, its output discarded (the JSON report holds
 * what counts), and kills the whole group (vitest's workers with it) after `boundMs` ms.
 * @returns 'passed' on exit 0, 'failed' on any other end, 'timed out' past the bound.
 */
export function bounded(args: readonly string[], env: NodeJS.ProcessEnv, boundMs: number): Promise<'passed' | 'failed' | 'timed out'> {
  return new Promise((resolve) => {
    const child = spawn(process.execPath, args, { cwd: packageRoot, env, detached: true, stdio: 'ignore' });
    // A spawn that fails emits 'error', then 'close' with no pid.
    child.once('error', () => undefined);
    const pid = child.pid ?? 0;
    if (pid) running.add(pid);
    let late = false;
    const timer = setTimeout(() => {
      late = true;
      killGroup(pid);
    }, boundMs);
    child.once('close', (code) => {
      clearTimeout(timer);
      running.delete(pid);
      // Workers the runner left behind go with it.
      killGroup(pid);
      resolve(late ? 'timed out' : code === 0 ? 'passed' : 'failed');
    });
  });
}

function killGroup(pid: number): void {
  if (!pid) return;
  try {
    process.kill(-pid, 'SIGKILL');
  } catch {
    // The group has ended already.
  }
}

/** The earlier sample files (scripts/mutation-samples/), by name. */
function earlierSamples(): Array<{ name: string; entries: Array<{ file: string; from: string; to: string }> }> {
  const dir = join(packageRoot, 'scripts/mutation-samples');
  return readdirSync(dir)
    .filter((name) => name.endsWith('.json'))
    .map((name) => ({ name, entries: JSON.parse(readFileSync(join(dir, name), 'utf8')) as Array<{ file: string; from: string; to: string }> }));
}
