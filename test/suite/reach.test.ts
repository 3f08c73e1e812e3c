/**
 * What an attacker or a real client tries first, the run tries (issue 44): the key under
 * other schemes and encodings, other spellings of the path, bodies deeper and wider than
 * a client sends by accident. Each fault caught in both profiles where it applies, each
 * beside a correct server that passes; only the checks in question run. The whole catalogue
 * is the matrix's (test/suite/matrix.test.ts).
 */
import { describe, expect, test } from 'vitest';
import { loadCatalogue } from '../support/matrix.js';
import { runAgainst } from '../support/targets.js';

const { faults, variants } = await loadCatalogue();
const variationsOf = (name: string) => (name === 'reference' ? {} : { variations: [(faults.get(name) ?? variants.get(name))!.variation] });

describe.each(['full', 'read-only'] as const)('the key under another scheme, and the path spelled otherwise (profile %s)', (profile) => {
  test.each([
    ['reference', 'auth-rejects-generated-credentials', undefined],
    ['basic-key-as-user-name', 'auth-rejects-generated-credentials', /^Expected status 401, received 200: the server accepted the valid key as a Basic user name \(Basic base64\(KEY:\)\)\nCoverage input: listCategories, /],
    ['reference', 'auth-path-spellings', undefined],
    ['trailing-slash-outside-auth', 'auth-path-spellings', /^a trailing slash: Expected no categories without a valid key on GET \/v1\/categories\/ \(a trailing slash\), received status 200 with \d+ listed items?: the operation is reached around authentication by a trailing slash/],
    ['route-case-insensitive-outside-auth', 'auth-path-spellings', /^the path in other case: Expected no categories without a valid key on GET \/v1\/Categories .*\(2 of 8 cases failed\)$/],
  ] as const)('%s: %s', async (name, checkId, message) => {
    const { report, exchanges } = await runAgainst(variationsOf(name), { profile, checkFilter: `^${checkId}$` });
    const check = report.checks.find((c) => c.id === checkId)!;
    expect(check.status).toBe(message ? 'failed' : 'passed');
    if (message) expect(check.failure!.message).toMatch(message);
    if (profile === 'read-only') expect(exchanges.filter((exchange) => exchange.request.method !== 'GET')).toEqual([]);
  }, 60_000);
});

describe('bodies deeper and wider than a client sends by accident', () => {
  test('the 100,000-level body is sent whole and its 400 judged; a correct server that refuses it passes', async () => {
    const { report, exchanges } = await runAgainst(variationsOf('json-depth-limit-400'), { checkFilter: '^create-deep-bodies$' });
    expect(report.checks.find((c) => c.id === 'create-deep-bodies')!.status).toBe('passed');
    const deepest = exchanges.find((exchange) => exchange.label === 'an extra member nested 100,000 levels deep as arrays')!;
    expect(deepest.request.bodyBytes).toBeGreaterThan(200_000);
    expect(deepest.response!.status).toBe(400);
    expect(deepest.response!.body).toContain('exceeded max depth of 10000');
    // The others are created: nested 1,000 deep, 10,000 wide, a string filling 1 MiB.
    expect(exchanges.filter((exchange) => exchange.response?.status === 201)).toHaveLength(4);
  }, 60_000);

  test('a server whose recursion overflows at 1,000 levels fails the check and no-server-error, each naming the depth', async () => {
    const { report } = await runAgainst(variationsOf('deep-nesting-crashes'), { checkFilter: '^(create-deep-bodies|no-server-error)$' });
    const failure = (id: string) => report.checks.find((c) => c.id === id)!.failure!.message;
    expect(failure('create-deep-bodies')).toBe('an extra member nested 1,000 levels deep as arrays: Expected 201, or 400 or 413 with an Error body, to a valid body with an extra member nested 1,000 levels deep as arrays, received 500 (3 of 5 cases failed)');
    expect(failure('no-server-error')).toMatch(/^3 of \d+ responses of listCategories or createCategory broke the rule; first: POST \/v1\/categories \(check create-deep-bodies: an extra member nested 1,000 levels deep as (arrays|objects)\) answered 500: a server error \(500\)$/);
  }, 60_000);
});
