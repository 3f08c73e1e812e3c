/**
 * Authentication (spec 5/R1, 5/R2, 4.2/R3, the 401 row of 4.1): every credential that is
 * not `Bearer <API_KEY>` is answered 401, on both operations, whatever the body; an
 * authorization failure wins over a body error.
 */
import { check } from '../src/check/define.js';
import { expectEachCase, expectStatus } from '../src/check/expect.js';
import { runState } from '../src/check/run-state.js';
import type { RequestBody } from '../src/http/client.js';

for (const credential of runState().invalid) {
  check(
    {
      id: `create-401-${credential.name}`,
      title: `createCategory with ${credential.description} answers 401, whatever the body`,
      clause: '4.2/R3',
      level: 'must',
    },
    async (t, skip) => {
      if (credential.unavailable) skip(credential.unavailable);
      const bodies: Array<{ label: string; body?: RequestBody }> = [
        { label: 'with a valid body', body: { json: { name: t.name() } } },
        { label: 'with a body lacking name', body: { json: { description: 'no name' } } },
        { label: 'without a body' },
      ];
      await expectEachCase(bodies, (c) => c.label, async (c) => {
        expectStatus(await t.create(c.body, credential), 401);
      });
    },
  );

  check(
    {
      id: `list-401-${credential.name}`,
      title: `listCategories with ${credential.description} answers 401`,
      clause: '5/R2',
      level: 'must',
    },
    async (t, skip) => {
      if (credential.unavailable) skip(credential.unavailable);
      expectStatus(await t.list(credential), 401);
    },
  );
}
