/**
 * The programmatic API, as a consumer sees it: `import { runConformance } from
 * 'petstore-conformance'` resolves through package.json's `exports`, from Node and from
 * TypeScript (the declarations), and runs the suite in that process.
 */
import { execFile } from 'node:child_process';
import { mkdir, mkdtemp, symlink, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { promisify } from 'node:util';
import { expect, test } from 'vitest';

const ROOT = fileURLToPath(new URL('../../', import.meta.url));
const run = promisify(execFile);

/** A consumer project with this package installed (linked) under node_modules. */
async function consumer(): Promise<string> {
  const dir = await mkdtemp(join(tmpdir(), 'pcs-api-'));
  await mkdir(join(dir, 'node_modules'));
  await symlink(ROOT, join(dir, 'node_modules', 'petstore-conformance'), 'dir');
  await writeFile(join(dir, 'package.json'), '{ "type": "module" }\n');
  return dir;
}

const USE = `import { EXIT, runConformance, type Report } from 'petstore-conformance';
const outcome = await runConformance({ reportDir: null, out: null, checkFilter: '^list-401-missing$' });
const report: Report = outcome.report;
console.log(JSON.stringify({ exitCode: outcome.exitCode, conformant: EXIT.conformant, headline: report.headline }));
`;

test('import { runConformance } from "petstore-conformance" type-checks and runs', async () => {
  const dir = await consumer();
  await writeFile(join(dir, 'use.ts'), USE);
  await writeFile(join(dir, 'tsconfig.json'), JSON.stringify({ compilerOptions: { module: 'NodeNext', moduleResolution: 'NodeNext', target: 'ES2022', strict: true, skipLibCheck: true, types: ['node'], typeRoots: [join(ROOT, 'node_modules/@types')], outDir: 'out' }, files: ['use.ts'] }));
  await run(process.execPath, [join(ROOT, 'node_modules/typescript/bin/tsc'), '-p', dir]);
  const { stdout } = await run(process.execPath, [join(dir, 'out', 'use.js')], { cwd: dir });
  expect(JSON.parse(stdout)).toEqual({ exitCode: 0, conformant: 0, headline: expect.stringMatching(/^SELF-TEST \(embedded reference server\): CONFORMANT within the checks selected \(--checks \^list-401-missing\$\): 1 of \d+ must checks ran, \d+ untested$/) });
}, 60_000);

/**
 * The library from any host: the run's threads take none of the host's Node options, so
 * an ESM script given on -e, a debugger, or a loader leave the run as it is (issue 45).
 */
test.each([
  ['a file', (file: string) => [file]],
  ['-e with --input-type=module', (_file: string, code: string) => ['--input-type=module', '-e', code]],
  ['--inspect=0', (file: string) => ['--inspect=0', file]],
  ['an --import loader', (file: string, _code: string, loader: string) => ['--import', loader, file]],
] as const)('the API example runs the same from %s', async (_host, argv) => {
  const dir = await consumer();
  const code = `import { runConformance } from 'petstore-conformance';
const { report, exitCode } = await runConformance({ reportDir: null, out: null, checkFilter: '^list-401-missing$' });
console.log(JSON.stringify({ verdict: report.verdict, exitCode }));`;
  await writeFile(join(dir, 'use.mjs'), code);
  // A loader that registers nothing but is there, as test runners and APMs load theirs.
  await writeFile(join(dir, 'loader.mjs'), "globalThis.loaded = true;\n");
  const { stdout } = await run(process.execPath, argv(join(dir, 'use.mjs'), code, join(dir, 'loader.mjs')), { cwd: dir });
  expect(JSON.parse(stdout.trim().split('\n').at(-1)!)).toEqual({ verdict: 'conformant', exitCode: 0 });
}, 60_000);

/**
 * An option left out behaves as documented whether it is absent, undefined or null (the
 * README's snippet left `reportDir` out, and the run crashed after it ended): each form
 * writes nothing, prints nothing, takes the default profile and ends alike.
 */
test('options absent, undefined or null: no report written, the default profile, conformant (three runs at once)', async () => {
  const { runConformance } = await import('../../src/runner/run.js');
  const forms = [{}, { reportDir: undefined, out: undefined, profile: undefined, seed: undefined }, { reportDir: null, out: null, profile: null, seed: null }];
  const outcomes = await Promise.all(forms.map((options) => runConformance({ checkFilter: '^list-401-missing$', ...(options as object) })));
  for (const outcome of outcomes) {
    expect(outcome.exitCode).toBe(0);
    expect(outcome.written).toEqual([]);
    expect(outcome.report.settings.profile).toBe('full');
    expect(outcome.report.settings.profileSource).toBe('default');
  }
});
