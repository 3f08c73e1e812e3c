import { KEY_PLACEHOLDER } from '../secrets/redactor.js';
import type { PlacedParts } from './key-placement.js';

/**
 * What a request carries in its `Authorization` header (spec section 5), together with
 * the form in which the header may be shown. The raw header never reaches a record.
 */
export interface Credential {
  /** Stable short name, used in check ids: `valid`, `missing`, `basic-scheme` ... */
  name: string;
  /** What the credential is, in words, for titles and messages. */
  description: string;
  /** The header value as sent; `undefined` omits the header. */
  header?: string;
  /** The header value as recorded and printed: secrets replaced by placeholders. */
  shown?: string;
  /** The key (or a server's cookies) carried elsewhere than Authorization: query, header fields, a form body (http/key-placement.ts). */
  placed?: PlacedParts;
}

/** No `Authorization` header at all (spec section 5: refused with 401). */
export const NO_CREDENTIAL: Credential = { name: 'missing', description: 'no Authorization header' };

/**
 * The valid key under the scheme name spelled `scheme` (`bearer`, `BEARER`): valid too,
 * as the scheme is case-insensitive (RFC 9110 §11.1).
 */
export function validCredentialSpelled(apiKey: string, scheme: string): Credential {
  return { name: `valid-${scheme}`, description: `the valid API key under the scheme ${scheme}`, header: `${scheme} ${apiKey}`, shown: `${scheme} ${KEY_PLACEHOLDER}` };
}

/** The credential of spec 5/R1: `Authorization: Bearer <API_KEY>`. */
export function validCredential(apiKey: string): Credential {
  return {
    name: 'valid',
    description: 'the valid API key as a bearer token',
    header: `Bearer ${apiKey}`,
    shown: `Bearer ${KEY_PLACEHOLDER}`,
  };
}
