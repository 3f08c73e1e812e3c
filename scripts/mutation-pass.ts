/**
 * `npm run mutations`: a quick mutation pass over the judgements. Each mutation loosens
 * or breaks one condition of a judgement in the sources, runs the judgement tests
 * (test/judgements, milliseconds each), and restores the file. A mutation the tests do not
 * notice "survives": a condition no test pins down. Prints a table; exits 1 when one
 * survives. (Stryker does this exhaustively; this pass keeps the conditions that decide
 * verdicts honest at a glance.)
 */
import { execFile } from 'node:child_process';
import { readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { promisify } from 'node:util';
import { packageRoot } from '../src/core/package-info.js';

interface Mutation {
  file: string;
  /** What the mutation does to the rule, in words. */
  what: string;
  from: string;
  to: string;
}

const MUTATIONS: Mutation[] = [
  { file: 'src/judgements/create.ts', what: 'create-ignores-client-id accepts any 4xx, not only 400', from: 'status === 400) return;', to: 'status >= 400) return;' },
  { file: 'src/judgements/create.ts', what: 'create-same-name-twice accepts one id for both', from: 'first.id !== second.id', to: 'true' },
  { file: 'src/judgements/invariants.ts', what: 'unauthorized-has-challenge accepts any scheme', from: '\\s*bearer\\b/i', to: '\\s*\\w+\\b/i' },
  { file: 'src/judgements/invariants.ts', what: 'no-server-error misses a 500', from: 'response.status >= 500 ?', to: 'response.status > 500 ?' },
  { file: 'src/judgements/invariants.ts', what: 'no-server-error judges routes whose status codes are not shown', from: "(_response, exchange) => new URL(exchange.request.url).pathname.endsWith('/v1/categories')", to: '() => true' },
  { file: 'src/judgements/invariants.ts', what: 'invariants judge superseded attempts (a 429 sent again)', from: 'exchange.superseded || ', to: '' },
  { file: 'src/judgements/invariants.ts', what: 'no-server-error ignores info probes', from: '!invariant.everyLevel && ', to: '' },
  { file: 'src/judgements/invariants.ts', what: 'error-status-matches-http compares loosely', from: '=== BigInt(response.status)', to: '!== undefined' },
  { file: 'src/judgements/list.ts', what: 'list-ids-unique accepts a repeated id', from: 'expectThat(first === undefined', to: 'expectThat(true' },
  { file: 'src/judgements/edge-cases.ts', what: 'edge cases accept any 4xx refusal', from: 'if (status === 400 ||', to: 'if (status >= 400 ||' },
  { file: 'src/check/expect.ts', what: 'the exact name is compared after trimming', from: 'found.name === fields.name', to: 'found.name.trim() === fields.name.trim()' },
  { file: 'src/check/expect.ts', what: 'an id past int64 is accepted', from: 'if (!isInt64(id)) {', to: 'if (false) {' },
  { file: 'src/check/expect.ts', what: 'expectStatus accepts any status of the same class', from: 'if (response.status !== expected) {', to: 'if (Math.floor(response.status / 100) !== Math.floor(expected / 100)) {' },
  { file: 'src/check/refusal.ts', what: 'a tab counts as a control that may be refused', from: '[\\u0000-\\u0008\\u000b', to: '[\\u0000-\\u0009\\u000b' },
  { file: 'src/check/length-limit.ts', what: 'a limit below 64 characters passes as a limit', from: "if ((await probe(EVERYDAY_LENGTH)) === 'refused') return { everyday: true };", to: '' },
  { file: 'src/check/length-limit.ts', what: 'one byte counts as one character', from: "['UTF-8 bytes', (text) => Buffer.byteLength(text)]", to: "['UTF-8 bytes', (text) => text.length]" },
];

const run = promisify(execFile);

/** Whether the judgement tests fail with the mutation in place. */
async function killed(): Promise<boolean> {
  try {
    await run(process.execPath, [join(packageRoot, 'node_modules/vitest/vitest.mjs'), 'run', 'test/judgements', '--reporter=dot'], { cwd: packageRoot });
    return false;
  } catch {
    return true;
  }
}

const rows: Array<[string, string]> = [];
for (const mutation of MUTATIONS) {
  const path = join(packageRoot, mutation.file);
  const original = readFileSync(path, 'utf8');
  if (!original.includes(mutation.from)) throw new Error(`${mutation.file}: the mutated text is gone: ${mutation.from}`);
  writeFileSync(path, original.replace(mutation.from, mutation.to));
  try {
    rows.push([(await killed()) ? 'killed' : 'SURVIVED', `${mutation.file}: ${mutation.what}`]);
  } finally {
    writeFileSync(path, original);
  }
  process.stdout.write(`${rows.at(-1)![0].padEnd(9)} ${rows.at(-1)![1]}\n`);
}
const survived = rows.filter(([outcome]) => outcome === 'SURVIVED').length;
process.stdout.write(`\n${rows.length - survived} of ${rows.length} mutations killed\n`);
process.exitCode = survived > 0 ? 1 : 0;
