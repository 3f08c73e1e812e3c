/**
 * Scope of authentication (spec section 5: "applies to every operation of the service";
 * section 4: "Every operation requires authentication"): the operations whose shapes are
 * not shown (4.3) still answer 401 without a valid key, and so do the two operations
 * reached by another spelling of their path.
 */
import { check } from '../src/check/define.js';
import { expectEachCase } from '../src/check/expect.js';
import { runState } from '../src/check/run-state.js';
import { settleAll } from '../src/check/settle.js';
import { PATH_SPELLINGS } from '../src/http/path-spellings.js';
import { isEmptyList, refusedWithoutKey, spelledCreatesAbsent, spelledPathClosed } from '../src/judgements/auth.js';
import { signalsDeprecation } from '../src/judgements/deprecation.js';

/** Registers the checks of this class for the target under registration (see check/run-state.ts). */
export default function register(): void {
  const { valid } = runState();
  const refused = runState().invalid.filter((credential) => ['missing', 'unknown-key'].includes(credential.name));

  for (const [id, path] of [
    ['pets-requires-auth', '/pets/1'],
    ['orders-requires-auth', '/store/orders'],
  ] as const) {
    check(
      { id, title: `GET ${path} without a valid key answers 401`, clause: '5', level: 'must', requirements: ['R-5-SCOPE', 'R-4-AUTH'] },
      async (t) => {
        // What the key gets there (its shape is not shown, 4.3): the same answer without it is the request let through.
        // Context only: a keyed route that hangs (a backend gone past its sunset) leaves nothing to compare.
        const keyed = await t.send('GET', path, valid).then((exchange) => exchange.response?.status, () => undefined);
        await expectEachCase(refused, (c) => c.description, async (credential) => {
          refusedWithoutKey(await t.send('GET', path, credential), keyed);
        });
      },
    );
  }

  check(
    {
      id: 'auth-path-spellings',
      title: 'without a key, listCategories and createCategory reached by another spelling of their path (a trailing slash, //, /./, %63, other case, ;x=1, an empty query) answer no categories and create none',
      clause: '5',
      level: 'must',
      requirements: ['R-5-SCOPE', 'R-4-AUTH'],
      needs: ['list'],
    },
    async (t) => {
      const missing = t.run.invalid.find((credential) => credential.name === 'missing')!;
      const base = new URL(t.run.settings.baseUrl).pathname.replace(/\/+$/, '');
      // A list leaked from a store that holds a category shows it; a read-only run sends GETs alone.
      if (!t.readOnly) await t.create({ json: { name: t.name('so that the list is not empty') } });
      /** Each keyless create's description, with where it was sent. */
      const tags = new Map<string, string>();
      const sent = await settleAll(
        PATH_SPELLINGS.map(async (spelling) => {
          const path = spelling.spell(base);
          const list = await t.send('GET', path, missing, undefined, { fromOrigin: true });
          if (t.readOnly) return { spelling, answers: [list] };
          const tag = `pcs-${t.run.settings.runId} created without a key on ${spelling.id}`;
          tags.set(tag, `${path} (${spelling.words})`);
          return { spelling, answers: [list, await t.send('POST', path, missing, { json: { name: t.name(spelling.id), description: tag } }, { fromOrigin: true })] };
        }),
      );
      // What the list holds with the key: an empty array is then what a leaked list would answer too.
      const keyed = await t.list();
      const listedNone = isEmptyList(keyed);
      await expectEachCase(sent, ({ spelling }) => spelling.words, async ({ spelling, answers }) => {
        for (const answer of answers) spelledPathClosed(answer, spelling.words, listedNone);
      });
      // A create that slipped through may answer anything: the keyed list tells.
      if (!t.readOnly) spelledCreatesAbsent(keyed, tags);
    },
    { serialRequests: 4 },
  );

  check(
    {
      id: 'pets-deprecation-signalled',
      title: 'GET /pets/1 with the key signals its deprecation and sunset date (Deprecation and Sunset headers)',
      clause: '9/R3',
      level: 'should',
      reference: 'RFC 9745 §2, RFC 8594 §3',
      requirements: ['H-DEPRECATION-SUNSET'],
    },
    async (t) => {
      signalsDeprecation(await t.send('GET', '/pets/1', valid));
    },
  );
}
