/**
 * Scope of authentication (spec section 5: "applies to every operation of the service";
 * section 4: "Every operation requires authentication"): the operations whose shapes are
 * not shown (4.3) still answer 401 without a valid key.
 */
import { check } from '../src/check/define.js';
import { expectEachCase, expectStatus } from '../src/check/expect.js';
import { runState } from '../src/check/run-state.js';
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
        await expectEachCase(refused, (c) => c.description, async (credential) => {
          expectStatus(await t.send('GET', path, credential), 401);
        });
      },
    );
  }

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
