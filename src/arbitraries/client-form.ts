import fc from 'fast-check';
import { ACCEPT_VALUES, BASELINE_FORM, CONTENT_TYPES, FRAMINGS, JSON_DIALECTS, singleVariations, type ClientForm, type Framing, type JsonDialect } from '../http/client-form.js';

/**
 * Ways a client writes a request (http/client-form.ts): each JSON dialect, Accept value,
 * Content-Type and framing, drawn independently. Each dimension shrinks to the suite's
 * own way of writing, so a counterexample keeps only the difference that matters.
 */
export function clientForm(): fc.Arbitrary<ClientForm> {
  return fc.record({
    json: fc.constantFrom(...(Object.keys(JSON_DIALECTS) as JsonDialect[])),
    accept: fc.constantFrom(...ACCEPT_VALUES.map(({ value }) => value)),
    contentType: fc.constantFrom(...CONTENT_TYPES.map(({ value }) => value)),
    framing: fc.constantFrom(...(Object.keys(FRAMINGS) as Framing[])),
  });
}

/** The suite's own form, then every form that differs from it in one way: what a coverage phase cycles through. */
export function everyClientForm(): ClientForm[] {
  return [BASELINE_FORM, ...singleVariations()];
}
