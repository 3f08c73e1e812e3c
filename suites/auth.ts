/**
 * Authentication (spec 5/R1, 5/R2, 4.2/R3, the 401 row of 4.1): every credential that is
 * not `Bearer <API_KEY>` is answered 401, on both operations, whatever the body; an
 * authorization failure wins over a body error; and no change an attacker makes to a
 * request without the key (arbitraries/auth-bypass.ts) gets through.
 */
import fc from 'fast-check';
import { invalidBody } from '../src/arbitraries/invalid-body.js';
import { bypass, bypassCoverage, bypassRequest, bypassWords, type Operation } from '../src/arbitraries/auth-bypass.js';
import { coverageLabels } from '../src/arbitraries/coverage.js';
import { newCategory } from '../src/arbitraries/new-category.js';
import { paddedNewCategory, sizedNewCategory } from '../src/arbitraries/sized-new-category.js';
import { check } from '../src/check/define.js';
import { expectEachCase, expectStatus } from '../src/check/expect.js';
import { challengesInvalidToken, credentialRefused, keyedListOf, keyElsewhereRefused, noneCreatedWithoutKey, refusedWithoutKey, revealsNothing } from '../src/judgements/auth.js';
import { testDataName } from '../src/check/context.js';
import { jarCookies, KEY_QUERY_PARAMETERS, keyPlacements, placementWords } from '../src/http/key-placement.js';
import { assertProperty, PROPERTY_TIME_LIMIT_MS } from '../src/check/property.js';
import { runState } from '../src/check/run-state.js';
import type { RequestBody } from '../src/http/request.js';
import { schemas } from '../src/schema/validators.js';
import { validCredentialSpelled } from '../src/http/credential.js';

/** Registers the checks of this class for the target under registration (see check/run-state.ts). */
export default function register(): void {
  for (const credential of runState().invalid) {
    check(
      {
        id: `create-401-${credential.name}`,
        title: `createCategory with ${credential.description} answers 401, whatever the body`,
        clause: '4.2/R3',
        level: 'must',
        requirements: ['R-4.2-R3', 'R-5-R1', 'R-5-R2'],
        // A POST, whatever its body, could write on a server that stores before it checks.
        writes: true,
      },
      async (t, skip) => {
        if (credential.unavailable) skip(credential.unavailable);
        const bodies: Array<{ label: string; body?: RequestBody }> = [
          { label: 'with a valid body', body: { json: { name: t.name() } } },
          { label: 'with a body lacking name', body: { json: { description: 'no name' } } },
          { label: 'without a body' },
        ];
        await expectEachCase(bodies, (c) => c.label, async (c) => {
          refusedWithoutKey(await t.create(c.body, credential));
        });
      },
    );

    check(
      {
        id: `list-401-${credential.name}`,
        title: `listCategories with ${credential.description} answers 401`,
        clause: '5/R2',
        level: 'must',
        requirements: ['R-4.1-401', 'R-5-R1', 'R-5-R2'],
      },
      async (t, skip) => {
        if (credential.unavailable) skip(credential.unavailable);
        refusedWithoutKey(await t.list(credential));
      },
    );
  }

  const { settings } = runState();
  /** The body past front limits that every full run sends without a key (arbitraries/auth-bypass.ts): 128 KiB. */
  const LARGE_BODY_BYTES = 128 * 1024;
  const readOnlyRun = settings.profile === 'read-only';
  /** Valid bodies carry this description, so a create that slipped through is found in the list. */
  const tag = `pcs-${settings.runId} created without a valid key`;
  const tagged = { name: testDataName(settings.runId, 'auth-rejects-generated-credentials', 'without a valid key'), description: tag };
  const coverage = bypassCoverage(settings.apiKey, readOnlyRun, { operation: 'create', body: { json: tagged } }, { operation: 'create', body: { json: paddedNewCategory(tagged, LARGE_BODY_BYTES) } });

  check(
    {
      id: 'auth-rejects-generated-credentials',
      title: 'every request without the exact key is refused, whatever an attacker changes (the credential, the method, a header that claims the client is internal): 401 with an Error body on both operations, whatever the body, nothing of the categories on any other method or path, and nothing created',
      clause: '5/R2',
      level: 'must', requirements: ['R-5-R1', 'R-5-R2', 'R-4.2-R3', 'R-4.1-401', 'R-5-SCOPE'], needs: ['list'],
      coverage: coverageLabels(coverage),
    },
    async (t) => {
      const base = new URL(t.run.settings.baseUrl).pathname.replace(/\/+$/, '');
      // A leaked list shows a category only when the store holds one; a read-only run writes none.
      if (!t.readOnly) await t.create({ json: { name: t.name('so that the list is not empty') } });
      // What the list with the key tells (its count, its entity tag): a refusal that carries the same told it too.
      const keyed = keyedListOf(await t.list().catch(() => undefined));
      const create = (body?: RequestBody): Operation => ({ operation: 'create', body });
      // A read-only run sends lists alone: no POST, whatever its body, is safe on every server.
      const operation: fc.Arbitrary<Operation> = t.readOnly
        ? fc.constant({ operation: 'list' })
        : fc.oneof(
            fc.constant<Operation>({ operation: 'list' }),
            fc.constant(create()),
            newCategory().map((fields) => create({ json: { ...fields, description: tag } })),
            // 401 wins "regardless of the body" (4.2/R3): its size included, up to about 1 MiB.
            { weight: 2, arbitrary: sizedNewCategory({ description: tag }).map((fields) => create({ json: fields })) },
            invalidBody(schemas.NewCategory, newCategory()).map(({ body }) => create(body)),
          );
      await assertProperty(
        t,
        bypass(t.run.settings.apiKey, operation, t.readOnly),
        async (attempt) => {
          const request = bypassRequest(attempt, base);
          const exchange = await t.send(request.method, request.path, request.credential, request.body, { fromOrigin: request.fromOrigin });
          if (request.defined) credentialRefused(exchange, bypassWords(attempt));
          else revealsNothing(exchange, bypassWords(attempt), keyed, request.onListPath);
        },
        { numRuns: 40, coverage },
      );
      noneCreatedWithoutKey(await t.list(), tag);
    },
    { timeLimitMs: PROPERTY_TIME_LIMIT_MS },
  );

  check(
    {
      id: 'auth-key-outside-authorization',
      title: 'the valid key in a key header, a cookie or a form field, and the cookies the server set sent back without it, are answered 401',
      clause: '5/R1',
      level: 'must',
      requirements: ['R-5-R1', 'R-5-R2', 'R-4.1-401', 'R-4.2-R3'],
    },
    async (t) => {
      // A form field is a POST: a read-only run sends the rest, all GETs. The query parameters are auth-key-in-query's.
      const placed = keyPlacements(t.run.settings.apiKey).filter((credential) => credential.placement.in !== 'query' && (!t.readOnly || credential.placement.in !== 'form'));
      // A keyed answer first, so a server that hands out a session cookie has handed one to this client (RFC 6265).
      // It is not judged here: a list that fails is the list checks' finding, and the jar is what it holds.
      await t.list().catch(() => undefined);
      const jar = t.run.client.cookiesFor('/categories');
      const cases = [...placed, ...(jar ? [jarCookies(jar.cookies, jar.setBy)] : [])];
      await expectEachCase(cases, (credential) => credential.description, async (credential) => {
        const exchange = credential.placement.in === 'form' ? await t.create(undefined, credential) : await t.list(credential);
        keyElsewhereRefused(exchange, placementWords(credential.placement));
      });
    },
    { serialRequests: 8 },
  );

  check(
    {
      id: 'auth-key-in-query',
      title: `the valid key in a query parameter (${KEY_QUERY_PARAMETERS.join(', ')}), no Authorization header, is answered 401; off loopback only with --allow-key-in-url (the key would reach the target's access logs)`,
      clause: '5/R1',
      level: 'must',
      requirements: ['R-5-R1', 'R-5-R2', 'R-4.1-401'],
      keyInUrl: true,
    },
    async (t) => {
      const placed = keyPlacements(t.run.settings.apiKey).filter((credential) => credential.placement.in === 'query');
      await expectEachCase(placed, (credential) => credential.description, async (credential) => {
        keyElsewhereRefused(await t.list(credential), placementWords(credential.placement));
      });
    },
    { serialRequests: 5 },
  );

  check(
    {
      id: 'auth-scheme-case-insensitive',
      title: 'the valid key is accepted under the scheme spelled bearer or BEARER',
      clause: '5',
      level: 'should',
      requirements: ['H-AUTH-SCHEME-CASE'],
      reference: 'RFC 9110 §11.1',
    },
    async (t) => {
      await expectEachCase(['bearer', 'BEARER'], (scheme) => `the scheme ${scheme}`, async (scheme) => {
        expectStatus(await t.list(validCredentialSpelled(t.run.settings.apiKey, scheme)), 200);
      });
    },
  );

  check(
    {
      id: 'unauthorized-invalid-token',
      title: 'the 401 to an unknown key challenges with error="invalid_token"',
      clause: '5',
      level: 'info',
      requirements: ['H-401-INVALID-TOKEN'],
      reference: 'RFC 6750 §3.1',
    },
    async (t) => {
      const unknown = t.run.invalid.find((credential) => credential.name === 'unknown-key')!;
      challengesInvalidToken(await t.list(unknown));
    },
  );
}
