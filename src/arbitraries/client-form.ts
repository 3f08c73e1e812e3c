import fc from 'fast-check';
import { ACCEPT_VALUES, BASELINE_FORM, CONTENT_TYPES, JSON_DIALECTS, singleVariations, type ClientForm, type JsonDialect } from '../http/client-form.js';

/**
 * Ways a client writes the same request (http/client-form.ts): each JSON dialect, Accept
 * value and Content-Type, drawn independently. Each dimension shrinks to the suite's own
 * way of writing, so a counterexample keeps only the difference that matters. The framing
 * is always a Content-Length: a must property never draws a transport feature
 * (http/request-variations.ts), so no counterexample or replay depends on one.
 */
export function clientForm(): fc.Arbitrary<ClientForm> {
  return fc.record({
    json: fc.constantFrom(...(Object.keys(JSON_DIALECTS) as JsonDialect[])),
    accept: fc.constantFrom(...ACCEPT_VALUES.map(({ value }) => value)),
    contentType: fc.constantFrom(...CONTENT_TYPES.map(({ value }) => value)),
    framing: fc.constant(BASELINE_FORM.framing),
  });
}

/** The suite's own form, then every form of the same request that differs from it in one way: what a coverage phase cycles through. */
export function everyClientForm(): ClientForm[] {
  return [BASELINE_FORM, ...singleVariations()];
}
