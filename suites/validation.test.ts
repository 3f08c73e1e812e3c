/**
 * Conformance class createCategory, rejections (spec 4.2/R2 and the 400 row of 4.2):
 * with a valid key, a body that is missing, lacks `name`, is not JSON, is not an object,
 * or holds a value of the wrong type is answered 400. The Error body of each answer is
 * judged once for the whole run by the section-7 invariants.
 */
import { check } from '../src/check/define.js';
import { expectEachCase, expectResponse, expectStatus, expectThat } from '../src/check/expect.js';
import type { RequestBody } from '../src/http/client.js';

/** A labelled body that must be refused with 400. */
interface Case {
  label: string;
  body: RequestBody;
}

const json = (value: unknown): Case => ({ label: `body ${JSON.stringify(value)}`, body: { json: value } });
const text = (raw: string): Case => ({ label: `body text ${JSON.stringify(raw)}`, body: { text: raw } });

function rejects(id: string, title: string, clause: string, cases: (name: string) => Case[]): void {
  check({ id, title, clause, level: 'must' }, async (t) => {
    await expectEachCase(cases(t.name()), (c) => c.label, async (c) => {
      expectStatus(await t.create(c.body), 400);
    });
  });
}

rejects('create-rejects-missing-name', 'a body without name answers 400', '4.2/R2', () => [
  json({ description: 'A category without a name.' }),
  json({}),
]);

rejects('create-rejects-missing-body', 'a create without a body answers 400', '4.2', () => [
  { label: 'an empty body', body: { text: '' } },
]);

rejects('create-rejects-malformed-json', 'a body that is not JSON answers 400', '4.2', (name) => [
  text(`{"name": "${name}"`),
  text(`{'name': '${name}'}`),
  text(`{name: "${name}"}`),
  text(`{"name": "${name}",}`),
]);

rejects('create-rejects-non-object', 'a JSON body that is not an object answers 400', '4.2', (name) => [
  json([{ name }]),
  json(name),
  json(42),
  json(true),
  json(null),
]);

rejects('create-rejects-wrong-type-name', 'a name that is not a string answers 400', '4.2', () =>
  [42, true, null, ['Cats'], { value: 'Cats' }].map((name) => json({ name })),
);

rejects('create-rejects-wrong-type-description', 'a description that is not a string answers 400', '4.2', (name) =>
  // null is left out: whether an optional field may be null is not settled by the spec.
  [42, false, ['Cats'], { text: 'Cats' }].map((description) => json({ name, description })),
);

check(
  { id: 'create-null-description', title: 'a null description is either accepted (201) or refused (400)', clause: '2', level: 'info' },
  async (t) => {
    const exchange = await t.create({ json: { name: t.name(), description: null } });
    const { status } = expectResponse(exchange);
    expectThat(status === 201 || status === 400, `Expected 201 or 400, received ${status}`, exchange);
  },
);
