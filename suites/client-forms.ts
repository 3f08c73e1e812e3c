/**
 * Conformance class: client forms (spec 4 and 4.2/R1 with section 2). The interface defines
 * its payloads as `application/json` and no header but Authorization, so two requests that
 * mean the same thing must get the same answer however a real client writes them: JSON
 * escaped, spaced, pretty-printed or in another key order, another Accept admitting JSON,
 * a Content-Type with a charset. A chunked body is a transport feature, not the same
 * request (src/http/request-variations.ts): suites/transport.ts judges it.
 * Judgement: src/judgements/client-forms.ts.
 */
import { everyClientForm } from '../src/arbitraries/client-form.js';
import { check } from '../src/check/define.js';
import { settleAll } from '../src/check/settle.js';
import { BASELINE_FORM, describeForm } from '../src/http/client-form.js';
import { createdInEveryForm, listedInForm } from '../src/judgements/client-forms.js';

/** Registers the checks of this class for the target under registration (see check/run-state.ts). */
export default function register(): void {
  const forms = everyClientForm();

  check(
    {
      id: 'client-forms-equivalent',
      title: 'one valid NewCategory written in every client form is created exactly in each, and a list with every Accept admitting JSON answers 200 holding them all',
      clause: '4.2/R1',
      level: 'must',
      requirements: ['R-4.2-R1', 'R-4-JSON', 'R-4.1-200', 'R-4.1-R1'],
      needs: ['create', 'list'],
      writes: true,
      coverage: forms.map(describeForm),
    },
    async (t) => {
      // What the forms write differently: non-ASCII and astral text (escapes, surrogate pairs), "/", quotes and backslashes, two fields (their order).
      // One name per form, so that each create is a body of its own (a create cut off by a reset is looked for by its fields).
      const fields = (i: number) => ({ name: `${t.name(`form ${i + 1}`)} Café 🐈 a/b <&>`, description: 'Ünïcödé — 日本語 😀 "quoted" \\ back/slash 👩‍👩‍👧' });
      const creates = await settleAll(forms.map(async (form, i) => ({ form, fields: fields(i), exchange: await t.create({ json: fields(i) }, t.run.valid, form) })));
      // After every create has ended: each list must hold them all.
      const acceptForms = forms.filter((form) => form.json === BASELINE_FORM.json && form.contentType === BASELINE_FORM.contentType);
      const sent = createdInEveryForm(creates);
      // One list at a time, each judged before the next is sent: a list can be 100,000 items.
      for (const form of acceptForms) listedInForm({ form, exchange: await t.list(t.run.valid, form) }, sent);
    },
    { serialRequests: 7 },
  );
}
