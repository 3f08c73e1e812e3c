/**
 * Conformance class createCategory, rejections (spec 4.2/R2 and the 400 row of 4.2):
 * with a valid key, a body that is missing, lacks `name`, is not JSON, is not an object,
 * or holds a value of the wrong type is answered 400. The Error body of each answer is
 * judged once for the whole run by the section-7 invariants.
 */
import fc from 'fast-check';
import { everyClientForm, clientForm } from '../src/arbitraries/client-form.js';
import { coverageLabels } from '../src/arbitraries/coverage.js';
import { invalidBody, invalidBodyCoverage } from '../src/arbitraries/invalid-body.js';
import { describeForm } from '../src/http/client-form.js';
import { newCategory } from '../src/arbitraries/new-category.js';
import { check } from '../src/check/define.js';
import { expectEachCase, expectErrorStatus, expectStatus } from '../src/check/expect.js';
import { assertProperty, PROPERTY_TIME_LIMIT_MS } from '../src/check/property.js';
import { schemas } from '../src/schema/validators.js';
import type { RequestBody } from '../src/http/request.js';
import type { RequirementId } from '../src/requirements/catalogue.js';

/** Registers the checks of this class for the target under registration (see check/run-state.ts). */
export default function register(): void {
  /** A labelled body that must be refused with 400. */
  interface Case {
    label: string;
    body: RequestBody;
  }

  const json = (value: unknown): Case => ({ label: `body ${JSON.stringify(value)}`, body: { json: value } });
  const text = (raw: string): Case => ({ label: `body text ${JSON.stringify(raw)}`, body: { text: raw } });

  function rejects(id: string, title: string, clause: string, requirements: RequirementId[], cases: (name: string) => Case[]): void {
    check({ id, title, clause, level: 'must', writes: true, requirements }, async (t) => {
      await expectEachCase(cases(t.name()), (c) => c.label, async (c) => {
        expectStatus(await t.create(c.body), 400);
      });
    });
  }

  rejects('create-rejects-missing-name', 'a body without name answers 400', '4.2/R2', ['R-4.2-R2'], () => [
    json({ description: 'A category without a name.' }),
    json({}),
  ]);

  rejects('create-rejects-missing-body', 'a create without a body answers 400', '4.2', ['R-4.2-400', 'R-2-NEWCATEGORY'], () => [
    { label: 'an empty body', body: { text: '' } },
  ]);

  rejects('create-rejects-malformed-json', 'a body that is not JSON answers 400', '4.2', ['R-4.2-400', 'R-2-NEWCATEGORY'], (name) => [
    text(`{"name": "${name}"`),
    text(`{'name': '${name}'}`),
    text(`{name: "${name}"}`),
    text(`{"name": "${name}",}`),
  ]);

  rejects('create-rejects-non-object', 'a JSON body that is not an object answers 400', '4.2', ['R-4.2-400', 'R-2-NEWCATEGORY'], (name) => [
    json([{ name }]),
    json(name),
    json(42),
    json(true),
    json(null),
  ]);

  rejects('create-rejects-wrong-type-name', 'a name that is not a string answers 400', '4.2', ['R-4.2-400', 'R-2-NEWCATEGORY'], () =>
    [42, true, null, ['Cats'], { value: 'Cats' }].map((name) => json({ name })),
  );

  rejects('create-rejects-wrong-type-description', 'a description that is not a string answers 400', '4.2', ['R-4.2-400', 'R-2-NEWCATEGORY'], (name) =>
    // Optional is not nullable: section 2 types description as string, and null is not one.
    [42, false, null, ['Cats'], { text: 'Cats' }].map((description) => json({ name, description })),
  );

  check(
    {
      id: 'create-rejects-invalid-bodies',
      title: 'every body generated invalid from the NewCategory schema, written as any client writes it, answers 400 with an Error body',
      clause: '4.2',
      level: 'must', requirements: ['R-4.2-400', 'R-4.2-R2', 'R-2-NEWCATEGORY'],
      writes: true,
      coverage: coverageLabels(INVALID_COVERAGE),
    },
    async (t) => {
      const bodies = fc.tuple(invalidBody(schemas.NewCategory, newCategory()), clientForm());
      await assertProperty(t, bodies, async ([{ body }, form]) => void expectErrorStatus(await t.create(body, t.run.valid, form), 400), {
        numRuns: 40,
        coverage: INVALID_COVERAGE,
      });
    },
    { sequential: true, timeLimitMs: PROPERTY_TIME_LIMIT_MS },
  );
}

/**
 * The coverage phase of create-rejects-invalid-bodies: every invalid shape, each written in
 * one of the client forms in turn, so every form carries refusals too: a form never turns
 * a refusal into a pass.
 */
const INVALID_COVERAGE = (() => {
  const forms = everyClientForm();
  return invalidBodyCoverage(schemas.NewCategory, { name: 'Cats', description: 'Felines' }).map(({ label, value }, i) => {
    const form = forms[i % forms.length]!;
    return { label: form === forms[0] ? label : `${label}; ${describeForm(form)}`, value: [value, form] as const };
  });
})();
