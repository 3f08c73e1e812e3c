/**
 * A seed names the same inputs in every build (the README's promise: `--seed` replays the
 * same requests, so a seed in yesterday's report reproduces today). Each arbitrary and
 * each coverage list of src/arbitraries/ is drawn with fixed seeds and held by a golden
 * file: its digest and its first values as fast-check prints them. A changed range,
 * weight, bound or word in a generator changes what a seed draws, and fails here; when
 * the change is meant, `npx vitest run test/unit/golden-samples.test.ts -u` writes the new
 * sample, and the diff shows what the seeds now draw.
 */
import { createHash } from 'node:crypto';
import fc from 'fast-check';
import { expect, test } from 'vitest';
import { clientForm, everyClientForm } from '../../src/arbitraries/client-form.js';
import { deepBodiesBeyondLimits, deepBodiesWithinLimits } from '../../src/arbitraries/deep-bodies.js';
import { fieldText } from '../../src/arbitraries/field-text.js';
import { bodyMutation, invalidBody, invalidBodyCoverage } from '../../src/arbitraries/invalid-body.js';
import { credentialCoverage, exampleCredentials, invalidCredential } from '../../src/arbitraries/invalid-credential.js';
import { bypass, bypassCoverage, bypassWords, type Bypass, type Operation } from '../../src/arbitraries/auth-bypass.js';
import { longText } from '../../src/arbitraries/long-text.js';
import { newCategory, newCategoryCoverage } from '../../src/arbitraries/new-category.js';
import { schemaValue } from '../../src/arbitraries/schema-value.js';
import { sizedNewCategory } from '../../src/arbitraries/sized-new-category.js';
import { unicodeText } from '../../src/arbitraries/unicode-text.js';
import { schemas } from '../../src/schema/validators.js';

const KEY = 'aB3-xY9_kQ2.zz~0';

/** What a list of drawn values is held by: how many, their digest, and the first few as fast-check prints them (cut to 160 characters). */
function golden(values: readonly unknown[]): string {
  const printed = values.map((value) => fc.stringify(value));
  const digest = createHash('sha256').update(printed.join('\n')).digest('hex').slice(0, 32);
  // Cut between code points: half a surrogate pair would not survive the file's UTF-8.
  const shown = printed.slice(0, 4).map((text) => [...text]).map((points) => `  ${points.length > 160 ? `${points.slice(0, 160).join('')}… (${points.length} characters)` : points.join('')}`);
  return [`${values.length} values, sha256 ${digest}`, ...shown].join('\n');
}

/** Two seeds' worth of draws: the bias fast-check applies differs with the run's index, so both small and large values are held. */
const drawn = <T>(arbitrary: fc.Arbitrary<T>, numRuns = 60) => [1, 2].flatMap((seed) => fc.sample(arbitrary, { seed, numRuns }));

const SOURCES: ReadonlyArray<[string, () => readonly unknown[]]> = [
  ['newCategory', () => drawn(newCategory())],
  ['sizedNewCategory', () => drawn(sizedNewCategory(), 20)],
  ['fieldText', () => drawn(fieldText())],
  ['longText', () => drawn(longText())],
  ['unicodeText', () => drawn(unicodeText())],
  ['invalidBody', () => drawn(invalidBody(schemas.NewCategory, newCategory()))],
  ['bodyMutation', () => drawn(bodyMutation(schemas.NewCategory))],
  ['invalidCredential', () => drawn(invalidCredential(KEY))],
  ['clientForm', () => drawn(clientForm())],
  ['schemaValue', () => drawn(schemaValue(schemas.NewCategory, { text: unicodeText({ maxLength: 8 }) }))],
  ['newCategoryCoverage', () => newCategoryCoverage((what) => `pcs-0123 ${what}`)],
  ['credentialCoverage', () => credentialCoverage(KEY)],
  ['bypass (full)', () => drawn(bypass(KEY, fc.constant<Operation>({ operation: 'list' }), false))],
  ['bypassCoverage (full)', () => bypassCoverage(KEY, false, { operation: 'create', body: { json: { name: 'n' } } }).map(({ label }) => label)],
  ['bypassCoverage (read-only)', () => bypassCoverage(KEY, true, { operation: 'list' }).map(({ label }) => label)],
  ['exampleCredentials', () => exampleCredentials(KEY, 'ab12')],
  ['invalidBodyCoverage', () => invalidBodyCoverage(schemas.NewCategory, { name: 'Cats', description: 'Felines' })],
  ['deepBodiesWithinLimits', () => deepBodiesWithinLimits((label) => `pcs-0123 ${label}`)],
  ['deepBodiesBeyondLimits', () => deepBodiesBeyondLimits((label) => `pcs-0123 ${label}`)],
  ['everyClientForm', () => everyClientForm()],
];

test('what fixed seeds draw from each generator, and each coverage list, is the golden sample (update with -u when a generator changes on purpose)', async () => {
  const text = SOURCES.map(([name, values]) => `${name}: ${golden(values())}`).join('\n\n');
  await expect(`${text}\n`).toMatchFileSnapshot('__snapshots__/golden-samples.txt');
});

/** Properties that fail on purpose: what each shrinks to is the counterexample a user reads, held as the sample is. */
const SHRUNK: ReadonlyArray<[string, () => unknown]> = [
  ['longText, 300 code points or more', () => counterexample(longText(), (text) => [...text].length < 300)],
  ['unicodeText, a character past U+00FF', () => counterexample(unicodeText(), (text) => [...text].every((c) => c.codePointAt(0)! <= 0xff))],
  ['fieldText, a control character', () => counterexample(fieldText(), (text) => !/[\u0000-\u001f\u007f]/.test(text))],
  ['newCategory, a name of 50 code points or more', () => counterexample(newCategory(), (value) => [...value.name].length < 50)],
  ['invalidCredential, a token with a comma', () => counterexample(invalidCredential(KEY), (credential) => !credential.header?.includes(','))],
  // A server that trusts any client-address header: the fewest changes that get through are one such header alone, without a key.
  ['bypass, a client-address header', () => bypassWords(counterexample(bypass(KEY, fc.constant<Operation>({ operation: 'list' }), false), (b) => b.context?.kind !== 'address') as Bypass)],
  // A server that takes any body whose name is a string: the fewest changes that make one invalid otherwise.
  ['invalidBody, a body whose name is still a string', () => counterexample(invalidBody(schemas.NewCategory, newCategory()), (invalid) => typeof (invalid.body as { json?: { name?: unknown } }).json?.name !== 'string')],
  ['bodyMutation, any', () => (counterexample(bodyMutation(schemas.NewCategory), () => false) as { label: string }).label],
  ['schemaValue, a description', () => counterexample(schemaValue(schemas.NewCategory, { text: unicodeText({ maxLength: 8 }) }), (value) => (value as { description?: unknown }).description === undefined)],
  ['sizedNewCategory, a body past 64 bytes', () => Buffer.byteLength(JSON.stringify(counterexample(sizedNewCategory(), (value) => Buffer.byteLength(JSON.stringify(value)) <= 64)))],
  // A server that lets HEAD through: HEAD alone, without a key.
  ['bypass, HEAD', () => bypassWords(counterexample(bypass(KEY, fc.constant<Operation>({ operation: 'list' }), true), (b) => b.method?.verb !== 'HEAD') as Bypass)],
];

function counterexample<T>(arbitrary: fc.Arbitrary<T>, holds: (value: T) => boolean): unknown {
  const details = fc.check(fc.property(arbitrary, holds), { seed: 1, numRuns: 200 });
  return details.counterexample?.[0] ?? 'none found';
}

test('what a failing property shrinks to, from a fixed seed, is held too (cross-shrinking reaches the simplest value)', async () => {
  const text = SHRUNK.map(([name, found]) => `${name}: ${golden([found()])}`).join('\n\n');
  await expect(`${text}\n`).toMatchFileSnapshot('__snapshots__/golden-shrinks.txt');
});

test('near miss: the digest tells apart samples that differ in one value', () => {
  const values = fc.sample(newCategory(), { seed: 1, numRuns: 20 });
  const changed = [...values.slice(0, -1), { ...values.at(-1)!, name: `${values.at(-1)!.name}x` }];
  expect(golden(changed)).not.toBe(golden(values));
  expect(golden(changed).split('\n').slice(1)).toEqual(golden(values).split('\n').slice(1));
});
