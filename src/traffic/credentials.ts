/**
 * The credentials of captured traffic (spec section 5): what each request's Authorization
 * field is, in the names the active checks use (`missing`, `basic-scheme`,
 * `key-char-added` …), and the secrets a capture holds, registered so that no report
 * shows them.
 */
import { KEY_PLACEHOLDER, type Redactor } from '../secrets/redactor.js';
import type { HarEntry } from './har-reader.js';

/**
 * What the judge knows of the valid key: its value (`--api-key-env`), or, in this tool's
 * own captures, the placeholder every request with the key shows (`${PETSTORE_API_KEY}`);
 * without either, a bearer token is `unverified` and 401 rules that need the key are not judged.
 */
export interface KnownKey {
  key?: string;
}

/** Credentials whose 401 the spec requires without knowing the key (5/R2: "missing or invalid"). */
export const INVALID_WITHOUT_KEY = ['missing', 'empty-token', 'basic-scheme', 'no-scheme', 'other-scheme'] as const;

/**
 * The credential a request carried, by its Authorization field:
 * - `missing`, `empty-token` (`Bearer` alone), `basic-scheme`, `no-scheme` (no space: a
 *   bare key), `other-scheme` (`Token …`): invalid whatever the key (5/R1);
 * - with the key known: `valid`, `valid-<scheme as spelled>` (`valid-bearer`: RFC 9110
 *   §11.1, the scheme is case-insensitive), or the invalid key's kind: `key-char-added`,
 *   `key-char-removed`, `key-char-changed`, `key-case-swapped`, else `unknown-key`;
 * - without it: `unverified`.
 */
export function credentialName(authorization: string | undefined, known: KnownKey): string {
  if (authorization === undefined) return 'missing';
  const value = authorization.trim();
  const space = value.search(/[ \t]/);
  if (space < 0) return /^bearer$/i.test(value) ? 'empty-token' : 'no-scheme';
  const scheme = value.slice(0, space);
  const token = value.slice(space).trim();
  if (/^basic$/i.test(scheme)) return 'basic-scheme';
  if (!/^bearer$/i.test(scheme)) return 'other-scheme';
  if (token === '') return 'empty-token';
  const key = known.key;
  if (key === undefined) return 'unverified';
  if (token === key) return scheme === 'Bearer' ? 'valid' : `valid-${scheme}`;
  return invalidKeyKind(token, key);
}

/** The kind of a token that is not the key, named as the active credential checks name theirs. */
function invalidKeyKind(token: string, key: string): string {
  if (token.length === key.length + 1 && token.startsWith(key)) return 'key-char-added';
  if (key.length === token.length + 1 && key.startsWith(token)) return 'key-char-removed';
  if (token.length === key.length && token.slice(0, -1) === key.slice(0, -1)) return 'key-char-changed';
  const swapped = [...key].map((c) => (c === c.toLowerCase() ? c.toUpperCase() : c.toLowerCase())).join('');
  if (swapped !== key && token === swapped) return 'key-case-swapped';
  return 'unknown-key';
}

/** Whether a credential is a valid key (under any spelling of the scheme). */
export function isValidCredential(name: string): boolean {
  return name === 'valid' || name.startsWith('valid-');
}

/** Whether a credential is known to be invalid: the spec requires 401 for it (5/R2, 4.2/R3). */
export function isInvalidCredential(name: string): boolean {
  return name !== 'unverified' && !isValidCredential(name);
}

/**
 * The key as the judge will know it: the value given, or, for a capture this tool wrote
 * (its `log.creator`), the placeholder its requests with the key show.
 */
export function knownKey(given: string | undefined, creatorName: string | undefined): KnownKey {
  if (given !== undefined) return { key: given };
  return creatorName === 'petstore-conformance' ? { key: KEY_PLACEHOLDER } : {};
}

/**
 * Registers every secret an entry carries: each Authorization value and its credential,
 * each cookie's value (Cookie and Set-Cookie fields, HAR's `cookies`), and the values of
 * the named secret headers (`--header-env`). The capture's secrets are then redacted from
 * every report like the key (Redactor). Placeholders number them in order of appearance.
 * @param secretHeaders lower-case names of further header fields whose values are secret.
 */
export function registerCaptureSecrets(entry: HarEntry, redactor: Redactor, secretHeaders: readonly string[], seen: Map<string, string>): void {
  const register = (value: string | undefined, what: string) => {
    const secret = value?.trim();
    if (!secret || secret === KEY_PLACEHOLDER || secret.includes('${')) return; // this tool's own placeholders are no secret
    if (seen.has(secret)) return;
    const shown = `[${what} ${seen.size + 1} of the capture]`;
    seen.set(secret, shown);
    redactor.add(secret, shown);
  };
  for (const side of [entry.request, entry.response]) {
    for (const { name, value } of side?.headers ?? []) {
      const field = String(name).toLowerCase();
      if (field === 'authorization' || field === 'proxy-authorization') {
        register(String(value).replace(/^\S+\s+/, ''), 'credential');
        register(String(value), 'credential');
      } else if (field === 'cookie') {
        for (const pair of String(value).split(';')) register(pair.slice(pair.indexOf('=') + 1), 'cookie');
      } else if (field === 'set-cookie') {
        for (const line of String(value).split('\n')) register(line.split(';', 1)[0]!.replace(/^[^=]*=/, ''), 'cookie');
      } else if (secretHeaders.includes(field)) {
        register(String(value), 'secret header');
      }
    }
    for (const cookie of side?.cookies ?? []) register(String(cookie.value), 'cookie');
  }
}
