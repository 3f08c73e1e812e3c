import { BASELINE_FORM, writeJson, type ClientForm, type JsonDialect } from './client-form.js';
import type { Credential } from './credential.js';
import { maySendAgainUnasked } from './retry-policy.js';
import { placedOverride } from './method-override.js';

/** A request body: a JSON value serialized by the client, or text sent verbatim. */
export type RequestBody = { json: unknown } | { text: string };

/** One request to send, relative to the target's base URL. */
export interface RequestSpec {
  method: string;
  /** Path below the base URL, starting with `/` (e.g. `/categories`), sent as written (dot segments and all). */
  path: string;
  /** The path is from the origin, not below the base URL's path: `/V1/categories`. */
  fromOrigin?: boolean;
  /** What the request is, in words (a coverage input's label), kept with its exchange for findings about its answer. */
  label?: string;
  credential: Credential;
  /** Absent: no body and no Content-Type. Present: sent with the form's Content-Type. */
  body?: RequestBody;
  /** How the request is written (JSON dialect, Accept, Content-Type, framing); default {@link BASELINE_FORM}. */
  form?: ClientForm;
}

/**
 * The body as the text that goes on the wire, or undefined for no body: a JSON value
 * written in `dialect` (compact by default), text verbatim.
 */
export function bodyText(body: RequestBody | undefined, dialect: JsonDialect = BASELINE_FORM.json): string | undefined {
  if (body === undefined) return undefined;
  return 'json' in body ? writeJson(body.json, dialect) : body.text;
}

/**
 * Whether sending the request twice has the effect of sending it once (RFC 9110 §9.2.2):
 * only such a request may be sent again without knowing whether the first was applied
 * (RFC 9112 §9.3.1).
 */
export function isIdempotent(spec: Pick<RequestSpec, 'method'> & { credential?: Pick<Credential, 'placed'> }): boolean {
  // A server that honours a method override carries out the method it names (http/method-override.ts).
  const override = placedOverride(spec.credential?.placed);
  return maySendAgainUnasked(spec.method) && (override === undefined || maySendAgainUnasked(override));
}
