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
import { overriddenMethod } from '../../src/http/method-override.js';
import { targetAsWritten } from '../../src/core/exchange.js';

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
    // Read-only: GET, HEAD and OPTIONS alone, and no override that names another method (http/method-override.ts).
    if (profile === 'read-only') {
      const writing = exchanges.filter(({ request }) => !['GET', 'HEAD', 'OPTIONS'].includes(request.method) || !['GET', 'HEAD', 'OPTIONS', undefined].includes(overriddenMethod(request.headers, targetAsWritten(request.url).query)));
      expect(writing).toEqual([]);
    }
  }, 60_000);
});

describe('bodies deeper and wider than a client sends by accident', () => {
  test('the 100,000-level body is sent whole and its 400 judged; a correct server that refuses it passes', async () => {
    const { report, exchanges } = await runAgainst(variationsOf('json-depth-limit-400'), { checkFilter: '^create-(deep-bodies|bodies-beyond-parser-limits)$' });
    expect(report.checks.filter((c) => c.id.startsWith('create-') && c.reason !== 'not selected').map((c) => [c.id, c.status])).toEqual([['create-deep-bodies', 'passed'], ['create-bodies-beyond-parser-limits', 'passed']]);
    const deepest = exchanges.find((exchange) => exchange.label === 'an extra member nested 100,000 levels deep as arrays')!;
    expect(deepest.request.bodyBytes).toBeGreaterThan(200_000);
    expect(deepest.response!.status).toBe(400);
    expect(deepest.response!.body).toContain('exceeded max depth of 10000');
    // The others are created: 32 levels (twice) and 1,000 members within the limits; nested 1,000 deep, 10,000 wide, a string filling 1 MiB past them.
    expect(exchanges.filter((exchange) => exchange.response?.status === 201)).toHaveLength(7);
  }, 60_000);

  test('a parser at its default limit that answers 500 near 1,000 levels: a should finding naming the depth and the limits, and no must failure', async () => {
    const { report } = await runAgainst(variationsOf('recursion-limit-500'), { checkFilter: '^(create-deep-bodies|create-bodies-beyond-parser-limits|no-server-error)$' });
    const status = (id: string) => report.checks.find((c) => c.id === id)!.status;
    expect([status('create-deep-bodies'), status('no-server-error')]).toEqual(['passed', 'passed']);
    expect(report.verdict).toBe('conformant');
    expect(report.checks.find((c) => c.id === 'create-bodies-beyond-parser-limits')!.failure!.message).toBe(
      'an extra member nested 1,000 levels deep as arrays: Expected 201, or 400 or 413 with an Error body, to a valid body with an extra member nested 1,000 levels deep as arrays, received 500; RFC 8259 §9 lets a parser limit nesting (by default Ruby’s json at 100 levels, PHP’s at 512, Python’s recursion near 1,000, Jackson 1,000): a robustness finding, not the verdict (3 of 5 cases failed)',
    );
  }, 60_000);

  test('a validator that crashes past 20 levels, within every parser’s limits, fails the must check and no-server-error, each naming the depth', async () => {
    const { report } = await runAgainst(variationsOf('deep-nesting-crashes'), { checkFilter: '^(create-deep-bodies|no-server-error)$' });
    const failure = (id: string) => report.checks.find((c) => c.id === id)!.failure!.message;
    expect(failure('create-deep-bodies')).toBe('an extra member nested 31 levels deep as arrays (the body 32): Expected 201, or 400 or 413 with an Error body, to a valid body with an extra member nested 31 levels deep as arrays (the body 32), received 500 (2 of 3 cases failed)');
    expect(failure('no-server-error')).toMatch(/^2 of \d+ responses of listCategories or createCategory broke the rule; first: POST \/v1\/categories \(check create-deep-bodies: an extra member nested 31 levels deep as (arrays|objects) \(the body 32\)\) answered 500: a server error \(500\)$/);
  }, 60_000);
});
