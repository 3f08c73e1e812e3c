import type { Credential } from './credential.js';

/** A request body: a JSON value serialized by the client, or text sent verbatim. */
export type RequestBody = { json: unknown } | { text: string };

/** One request to send, relative to the target's base URL. */
export interface RequestSpec {
  method: string;
  /** Path below the base URL, starting with `/` (e.g. `/categories`). */
  path: string;
  credential: Credential;
  /** Absent: no body and no Content-Type. Present: sent with `Content-Type: application/json`. */
  body?: RequestBody;
}

/** The body as the bytes' text that goes on the wire, or undefined for no body. */
export function bodyText(body: RequestBody | undefined): string | undefined {
  if (body === undefined) return undefined;
  return 'json' in body ? JSON.stringify(body.json) : body.text;
}

/**
 * Whether sending the request twice has the effect of sending it once (RFC 9110 §9.2.2):
 * only such a request may be sent again without knowing whether the first was applied
 * (RFC 9112 §9.3.1).
 */
export function isIdempotent(spec: Pick<RequestSpec, 'method'>): boolean {
  return ['GET', 'HEAD', 'OPTIONS', 'PUT', 'DELETE'].includes(spec.method.toUpperCase());
}
