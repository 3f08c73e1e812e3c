/**
 * Method overrides: header fields and a query parameter by which frameworks let a client
 * name another method than the request line's (Express's method-override, Rails' and
 * Laravel's `_method`, ASP.NET's and Google's `X-HTTP-Method-Override`, OData's
 * `X-HTTP-Method`). A server that honours one answers as that method: the suite sizes the
 * answer so, and a read-only run sends none that names a method which could write.
 */

import type { PlacedParts } from './key-placement.js';

/** The header fields, as clients write them. */
export const METHOD_OVERRIDE_HEADERS = ['X-HTTP-Method-Override', 'X-HTTP-Method', 'X-Method-Override'] as const;
/** The query parameter (Rails, Laravel, Symfony). */
export const METHOD_OVERRIDE_PARAMETER = '_method';

/**
 * The method a request names in an override, upper-cased, or undefined when it names none.
 * @param headers the request's header fields, names in lower case.
 * @param query the request's query, without `?` (absent: none).
 */
export function overriddenMethod(headers: Readonly<Record<string, string | undefined>>, query?: string): string | undefined {
  for (const name of METHOD_OVERRIDE_HEADERS) {
    const value = headers[name.toLowerCase()];
    if (value !== undefined && value.trim() !== '') return value.trim().toUpperCase();
  }
  const parameter = query === undefined ? null : new URLSearchParams(query).get(METHOD_OVERRIDE_PARAMETER);
  return parameter ? parameter.toUpperCase() : undefined;
}

/** The method a request's placed parts (http/key-placement.ts: its headers and query beyond the suite's own) name in an override. */
export function placedOverride(placed: PlacedParts | undefined): string | undefined {
  const headers = Object.fromEntries(Object.entries(placed?.headers ?? {}).map(([name, { sent }]) => [name.toLowerCase(), sent]));
  return overriddenMethod(headers, placed?.query?.sent);
}
