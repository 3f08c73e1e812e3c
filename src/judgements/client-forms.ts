/**
 * Judgement of the client-forms class (spec 4.2/R1 with section 2, and 4.1): the same
 * request, written as different real clients write it, gets the same answer. A pure
 * function of recorded exchanges.
 */
import { expectListArray, type SentFields } from '../check/expect.js';
import { CheckFailure, hasCode } from '../core/errors.js';
import type { Exchange } from '../core/exchange.js';
import { describeForm, isBaselineForm, type ClientForm } from '../http/client-form.js';
import { createdExactly, createdListed, type SentCategory } from './create.js';

/** A request written in one form, and its answer. */
export interface FormExchange {
  form: ClientForm;
  exchange: Exchange;
}

/**
 * client-forms-equivalent, creates: a valid NewCategory created in every form is created in
 * each, with exactly the fields sent (4.2/R1). A failure names the form the server treats
 * differently.
 * @param creates one create per form, with the fields it sent.
 * @returns what each create sent and got, for {@link listedInForm}.
 */
export function createdInEveryForm(creates: ReadonlyArray<FormExchange & { fields: SentFields }>): SentCategory[] {
  return creates.map(({ form, fields, exchange }) => ({ checkId: describeForm(form), fields, created: inForm(form, () => createdExactly(exchange, fields)) }));
}

/**
 * client-forms-equivalent, lists: a list sent with any Accept that admits application/json
 * (RFC 9110 §12.5.1) answers 200 with an array holding every category created (4.1, 4.1/R1).
 * One list at a time: a list can be 16 MiB, parsed several times that.
 * @param list a list sent after every create of `sent` had ended.
 */
export function listedInForm({ form, exchange }: FormExchange, sent: readonly SentCategory[]): void {
  inForm(form, () => {
    expectListArray(exchange);
    createdListed(exchange, sent);
  });
}

/**
 * Runs a judgement, naming the form in its failure: `a request written with "/" escaped as
 * "\/" (…): Expected …`. The suite's own form keeps the failure as it is: a server that
 * fails it fails every check alike, one root cause rather than a form of its own.
 */
function inForm<T>(form: ClientForm, judge: () => T): T {
  try {
    return judge();
  } catch (error) {
    if (!hasCode(error, 'PCS_CHECK_FAILURE') || isBaselineForm(form)) throw error;
    // The same rules broken, at the same place; a defect of its own (this form's), so no defect to fold on.
    const { breaks, pointer } = error.deviation ?? {};
    throw new CheckFailure(`A request ${describeForm(form)}: ${error.message}`, error.exchange, {
      expected: `${error.deviation?.expected ?? 'the ordinary answer'} whatever the form`,
      found: `${error.deviation?.found ?? 'another answer'} (${describeForm(form)})`,
      ...(breaks ? { breaks } : {}),
      ...(pointer ? { pointer } : {}),
    });
  }
}
