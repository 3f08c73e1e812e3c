/**
 * A key taken from anywhere but the Authorization header is caught in every profile: the
 * faults that accept it from the query, an X-API-Key header or a session cookie fail
 * auth-key-outside-authorization in a read-only run (all its cases but the form field are
 * GETs), and the reference server passes it (the near miss). The full profile is the
 * matrix's (test/suite/matrix.test.ts).
 */
import { describe, expect, test } from 'vitest';
import { loadCatalogue } from '../support/matrix.js';
import { runAgainst } from '../support/targets.js';

const { faults } = await loadCatalogue();
const CHECK = 'auth-key-outside-authorization';

describe('read-only profile', () => {
  test.each([
    ['reference', 'passed', /.*/],
    ['key-in-query-accepted', 'failed', /authenticated it by the query parameter access_token/],
    ['api-key-header-accepted', 'failed', /authenticated it by the header X-API-Key/],
    ['session-cookie-accepted', 'failed', /authenticated it by the cookie `session` alone \(set by the 200 to a keyed list\)/],
  ] as const)('%s: %s', async (name, status, message) => {
    const { report, exchanges } = await runAgainst(name === 'reference' ? {} : { variations: [faults.get(name)!.variation] }, { profile: 'read-only', checkFilter: `^${CHECK}$` });
    const check = report.checks.find((c) => c.id === CHECK)!;
    expect(check.status).toBe(status);
    if (status === 'failed') expect(check.failure!.message).toMatch(message);
    // No POST in a read-only run: the form field is not sent.
    expect(exchanges.length).toBeGreaterThanOrEqual(9);
    expect(exchanges.filter((exchange) => exchange.request.method !== 'GET')).toEqual([]);
  }, 60_000);
});
