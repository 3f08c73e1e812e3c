/**
 * Judgements of deprecation (spec 4.3 and 9/R3: GET /pets/{petId} "is deprecated and has a
 * sunset date"). How that is signalled is not shown; HTTP's standard fields are the
 * `Deprecation` header (RFC 9745) and the `Sunset` header (RFC 8594): a should check.
 */
import { expectResponse, expectThat } from '../check/expect.js';
import type { Exchange } from '../core/exchange.js';

/**
 * An HTTP-date (RFC 9110 §5.6.7): IMF-fixdate, or one of the obsolete forms a recipient
 * must accept (rfc850-date, asctime-date).
 */
const HTTP_DATE = new RegExp(
  [
    '^(Mon|Tue|Wed|Thu|Fri|Sat|Sun), \\d{2} (Jan|Feb|Mar|Apr|May|Jun|Jul|Aug|Sep|Oct|Nov|Dec) \\d{4} \\d{2}:\\d{2}:\\d{2} GMT$',
    '^(Monday|Tuesday|Wednesday|Thursday|Friday|Saturday|Sunday), \\d{2}-(Jan|Feb|Mar|Apr|May|Jun|Jul|Aug|Sep|Oct|Nov|Dec)-\\d{2} \\d{2}:\\d{2}:\\d{2} GMT$',
    '^(Mon|Tue|Wed|Thu|Fri|Sat|Sun) (Jan|Feb|Mar|Apr|May|Jun|Jul|Aug|Sep|Oct|Nov|Dec) ( \\d|\\d{2}) \\d{2}:\\d{2}:\\d{2} \\d{4}$',
  ].join('|'),
);

/** A Structured Field Date (RFC 9651 §3.3.7, the form RFC 9745 §2.1 gives Deprecation): `@` and an integer of seconds. */
const SF_DATE = /^@-?\d{1,15}$/;

/**
 * pets-deprecation-signalled: the answer to an authorized GET /pets/{petId} carries
 * `Deprecation` as a date (RFC 9745 §2.1) and `Sunset` as an HTTP-date (RFC 8594 §3),
 * whatever its status.
 */
export function signalsDeprecation(exchange: Exchange): void {
  const { headers } = expectResponse(exchange);
  const deprecation = headers['deprecation'];
  const sunset = headers['sunset'];
  expectThat(deprecation !== undefined && SF_DATE.test(deprecation.trim()), `Expected a Deprecation header holding a date such as @1767225600 (RFC 9745 §2.1), received ${deprecation === undefined ? 'none' : `Deprecation: ${deprecation}`}`, exchange, {
    expected: 'Deprecation: @<seconds>',
    found: deprecation === undefined ? 'no Deprecation' : `Deprecation: ${deprecation}`,
  });
  expectThat(sunset !== undefined && HTTP_DATE.test(sunset.trim()), `Expected a Sunset header holding an HTTP-date (RFC 8594 §3), received ${sunset === undefined ? 'none' : `Sunset: ${sunset}`}`, exchange, {
    expected: 'Sunset: <HTTP-date>',
    found: sunset === undefined ? 'no Sunset' : `Sunset: ${sunset}`,
  });
}
