/**
 * Judgement of the client-forms class (src/judgements/client-forms.ts): each case beside
 * its near miss. A form treated differently fails naming that form; the suite's own form
 * fails as any create does (one root cause with the other checks).
 */
import { describe, expect, test } from 'vitest';
import { createdInEveryForm, listedInForm } from '../../src/judgements/client-forms.js';
import { BASELINE_FORM, type ClientForm } from '../../src/http/client-form.js';
import { answered, judged } from '../support/exchanges.js';

const escaped: ClientForm = { ...BASELINE_FORM, json: 'escaped-non-ascii' };
const curl: ClientForm = { ...BASELINE_FORM, accept: '*/*' };
const fields = { name: 'Cats 🐈', description: 'a/b' };
const created = (id: number, body: object = fields) => answered(201, { id, ...body }, { method: 'POST' });
const ESCAPED_WORDS = /^another name \(the body written with every non-ASCII character escaped as \\uXXXX/;

describe('createdInEveryForm', () => {
  test.each([
    ['each form created exactly passes', [BASELINE_FORM, escaped], [created(1), created(2)], 'passed'],
    [
      'a surrogate pair stored as two U+FFFD fails naming the form and the damage',
      [BASELINE_FORM, escaped],
      [created(1), created(2, { ...fields, name: 'Cats \ufffd\ufffd' })],
      { expected: 'the name sent whatever the form', found: expect.stringMatching(ESCAPED_WORDS) },
    ],
    [
      'a 406 to a form fails naming the form',
      [BASELINE_FORM, curl],
      [created(1), answered(406, { code: 'not_acceptable', message: 'x', status: 406 }, { method: 'POST' })],
      { expected: 'status 201 whatever the form', found: 'status 406 (Accept: */* (as curl and Python requests send it))' },
    ],
    [
      "the suite's own form refused fails as any create does, not as a form",
      [BASELINE_FORM, escaped],
      [answered(200, { id: 1, ...fields }, { method: 'POST' }), created(2)],
      { expected: 'status 201', found: 'status 200' },
    ],
  ] as const)('%s', (_d, forms, exchanges, outcome) => {
    const creates = forms.map((form, i) => ({ form, fields, exchange: exchanges[i]! }));
    expect(judged(() => createdInEveryForm(creates))).toEqual(outcome);
  });

  test('the damage is named by code point', () => {
    const creates = [{ form: escaped, fields, exchange: created(2, { ...fields, name: 'Cats \ufffd\ufffd' }) }];
    expect(() => createdInEveryForm(creates)).toThrow(/at character 6, U\+1F408 came back as U\+FFFD U\+FFFD/);
  });
});

describe('listedInForm', () => {
  const sent = createdInEveryForm([{ form: BASELINE_FORM, fields, exchange: created(1) }]);
  test.each([
    ['a list holding the create passes', curl, answered(200, [{ id: 1, ...fields }]), 'passed'],
    ['a list holding other items besides passes', curl, answered(200, [{ id: 9, name: 'x' }, { id: 1, ...fields }]), 'passed'],
    ['a 406 to an Accept that admits JSON fails naming it', curl, answered(406, { code: 'x', message: 'y', status: 406 }), { expected: 'status 200 whatever the form', found: 'status 406 (Accept: */* (as curl and Python requests send it))' }],
    ['a list without the create fails naming the Accept', { ...BASELINE_FORM, accept: null }, answered(200, []), { expected: 'a created category listed whatever the form', found: 'it missing (without an Accept header)' }],
  ] as const)('%s', (_d, form, exchange, outcome) => expect(judged(() => listedInForm({ form, exchange }, sent))).toEqual(outcome));
});
