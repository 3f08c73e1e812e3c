/**
 * The credentials of captured traffic (spec section 5): what each request's Authorization
 * field is, in the names the active checks use (`missing`, `basic-scheme`,
 * `key-char-added` …), and the secrets a capture holds, registered so that no report
 * shows them.
 */
import { KEY_PLACEHOLDER, type Redactor } from '../secrets/redactor.js';
import type { HarPair } from './har-reader.js';
import { KEY_FORM_FIELD, KEY_HEADERS, KEY_QUERY_PARAMETERS } from '../http/key-placement.js';
import { javaHashCode } from '../arbitraries/invalid-credential.js';

/**
 * What the judge knows of the valid key. The spec does not say how keys are issued
 * (section 5: "not shown"), so a server may accept many: a token is called invalid only
 * when it is one edit away from a key the judge knows, or when the capture is this tool's
 * own run, every credential of which is the key or one it made invalid.
 */
export interface KnownKey {
  /** The key's value (`--api-key-env`). */
  key?: string;
  /** How the capture shows the key: `${PETSTORE_API_KEY}` in this tool's own HARs. */
  placeholder?: string;
  /** The capture is this tool's own run: every token but the key is one it made invalid. */
  everyOtherInvalid?: boolean;
}

/**
 * The credential a request carried, by its Authorization field:
 * - `missing`, `empty-token` (`Bearer` alone), `basic-scheme`, `no-scheme` (no space: a
 *   bare key), `other-scheme` (`Token …`): invalid whatever the key (5/R1);
 * - `valid`, or `valid-<scheme as spelled>` (`valid-bearer`: RFC 9110 §11.1 makes the
 *   scheme case-insensitive), for the key the judge knows;
 * - one edit from it: `key-char-added`, `key-char-removed`, `key-char-changed`,
 *   `key-case-swapped`; the key base64-encoded or followed by a second credential:
 *   `bearer-base64`, `key-twice`; the key with a second word, after another key,
 *   percent-encoded, with characters outside ASCII, or another token of its Java hash:
 *   `key-second-word`, `key-and-another`, `key-percent-encoded`, `key-non-ascii`,
 *   `key-hash-collision`; in this tool's own captures any other token is `unknown-key`;
 * - else `unverified`: perhaps another client's key.
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
  const forms = [known.key, known.placeholder].filter((form): form is string => form !== undefined);
  if (forms.includes(token)) return scheme === 'Bearer' ? 'valid' : `valid-${scheme}`;
  for (const form of forms) {
    const kind = oneEditKind(token, form) ?? encodedKind(token, form);
    if (kind) return kind;
  }
  return known.everyOtherInvalid ? 'unknown-key' : 'unverified';
}

/** The kind of a token one edit from the key, named as the active credential checks name theirs; undefined for any other token. */
function oneEditKind(token: string, key: string): string | undefined {
  if (token.length === key.length + 1 && token.startsWith(key)) return 'key-char-added';
  if (key.length === token.length + 1 && key.startsWith(token)) return 'key-char-removed';
  if (token.length === key.length && token.slice(0, -1) === key.slice(0, -1)) return 'key-char-changed';
  const swapped = [...key].map((c) => (c === c.toLowerCase() ? c.toUpperCase() : c.toLowerCase())).join('');
  if (swapped !== key && token === swapped) return 'key-case-swapped';
  return undefined;
}

/**
 * The kind of a bearer token that carries the key encoded or repeated, named as the active
 * run names it (arbitraries/invalid-credential.ts): `bearer-base64` (base64 or base64url,
 * padded or not), `key-twice` (the key, a comma, and more: a list where one credential goes,
 * RFC 9110 §11.6.2); undefined for any other token.
 */
function encodedKind(token: string, key: string): string | undefined {
  const base64 = Buffer.from(key).toString('base64');
  const forms = new Set([base64, base64.replace(/=+$/, ''), Buffer.from(key).toString('base64url')]);
  if (forms.has(token)) return 'bearer-base64';
  if (token.startsWith(key) && /^\s*,/.test(token.slice(key.length))) return 'key-twice';
  if (token.startsWith(key) && /^[ \t]+\S/.test(token.slice(key.length))) return 'key-second-word';
  if (token.endsWith(key) && /,\s*(bearer\s+)?$/i.test(token.slice(0, -key.length))) return 'key-and-another';
  if (token.includes('%') && [decoded(token), decoded(decoded(token) ?? '')].includes(key)) return 'key-percent-encoded';
  if (/[^\x00-\x7f]/.test(token) && (token.startsWith(key) || onlyOutsideAsciiDiffers(token, key))) return 'key-non-ascii';
  if (token.length === key.length && javaHashCode(token) === javaHashCode(key)) return 'key-hash-collision';
  return undefined;
}

/** A token percent-decoded once (RFC 3986 §2.1), or undefined when it does not decode. */
function decoded(token: string): string | undefined {
  try {
    return decodeURIComponent(token);
  } catch {
    return undefined;
  }
}

/**
 * Whether a token is the key with characters outside ASCII in some places (a confusable, a
 * fullwidth form), read as a capture holds it: each character, or the UTF-8 bytes of one as
 * Latin-1 characters (what a server's Latin-1 reading of the field shows).
 */
function onlyOutsideAsciiDiffers(token: string, key: string): boolean {
  const ascii = token.replace(/[^\x00-\x7f]+/g, '\u0000');
  if (ascii.length !== key.length) return false;
  return [...ascii].every((c, i) => c === key[i] || c === '\u0000');
}

/** Whether a credential is a valid key (under any spelling of the scheme). */
export function isValidCredential(name: string): boolean {
  return name === 'valid' || name.startsWith('valid-');
}

/** Whether a credential is known to be invalid: the spec requires 401 for it (5/R2, 4.2/R3). */
export function isInvalidCredential(name: string): boolean {
  return name !== 'unverified' && !isValidCredential(name);
}

/** The `log.creator.name` of the HAR files this tool writes: a run's `exchanges.har`, and the proxy's `--har`. */
export const RUN_CREATOR = 'petstore-conformance';
export const PROXY_CREATOR = 'petstore-conformance-proxy';

/**
 * The key as the judge will know it: the value given, and in this tool's own HARs (their
 * `log.creator`) the placeholder its requests with the key show; a run's own capture
 * holds nothing but the key and credentials made invalid.
 */
export function knownKey(given: string | undefined, creatorName: string | undefined): KnownKey {
  const own = creatorName === RUN_CREATOR || creatorName === PROXY_CREATOR;
  return { ...(given !== undefined ? { key: given } : {}), ...(own ? { placeholder: KEY_PLACEHOLDER } : {}), ...(creatorName === RUN_CREATOR ? { everyOtherInvalid: true } : {}) };
}

/** The header fields and cookies of one message, as HAR lists them. */
interface MessageFields {
  headers?: readonly HarPair[];
  cookies?: readonly HarPair[];
}

/** A request as HAR lists it: its fields, and where else a key may ride (the URL's query, a form body). */
interface RequestFields extends MessageFields {
  url?: string;
  postData?: { mimeType?: string; text?: unknown };
}

/**
 * Secrets of a capture redacted in every form and piece (as the key is); those after them
 * are found whole, as written or case-folded (Redactor.addWhole). A capture of a server that
 * sets a fresh cookie per answer holds thousands: in full, 2,000 exchanges took `judge` 60 s.
 */
export const FULLY_REDACTED_SECRETS = 64;

/** Lower-case names of the header fields that carry keys by name (http/key-placement.ts), besides Authorization. */
const KEY_HEADER_NAMES: ReadonlySet<string> = new Set(KEY_HEADERS.map((name) => name.toLowerCase()));

/**
 * Registers every secret an entry carries, the moment it is first seen, so that nothing
 * written after shows it: each Authorization value and its credential, the header fields
 * that carry keys by name (`X-API-Key`, `Api-Key`), each cookie's value (Cookie and
 * Set-Cookie fields, HAR's `cookies`), the query parameters and the form field that carry
 * keys (`access_token`, `api_key` …, RFC 6750 §2.2–2.3), and the values of the named secret
 * headers (`--header-env`). The capture's secrets are then redacted from every report like
 * the key (Redactor). Placeholders number them in order of appearance.
 * @param secretHeaders lower-case names of further header fields whose values are secret.
 */
export function registerCaptureSecrets(entry: { request?: RequestFields; response?: MessageFields }, redactor: Redactor, secretHeaders: readonly string[], seen: Map<string, string>): void {
  const register = (value: string | undefined, what: string) => {
    const secret = value?.trim();
    // Asked first: a session's cookie comes again with every request.
    if (!secret || seen.has(secret)) return;
    if (secret === KEY_PLACEHOLDER || secret.includes('${') || /^\[capture-[a-z-]+-\d+\]$/.test(secret)) return; // this tool's own placeholders are no secret
    // One word, no space: a redacted credential still reads as a bearer token in the HAR the proxy writes.
    const shown = `[capture-${what}-${seen.size + 1}]`;
    seen.set(secret, shown);
    // Past the first secrets, each is found whole only: a fresh cookie per answer must not make each exchange dearer than the last.
    if (seen.size > FULLY_REDACTED_SECRETS) redactor.addWhole(secret, shown);
    else redactor.add(secret, shown);
  };
  for (const side of [entry.request, entry.response]) {
    for (const { name, value } of side?.headers ?? []) {
      const field = String(name).toLowerCase();
      if (field === 'authorization' || field === 'proxy-authorization') {
        // The credential, not the scheme: `Bearer` is no secret, and the judge reads it in what is written.
        const text = String(value).trim();
        register(/\s/.test(text) ? text.replace(/^\S+\s+/, '') : text, 'credential');
      } else if (field === 'cookie') {
        for (const pair of String(value).split(';')) register(pair.slice(pair.indexOf('=') + 1), 'cookie');
      } else if (field === 'set-cookie') {
        for (const line of String(value).split('\n')) register(cookieValue(line), 'cookie');
      } else if (KEY_HEADER_NAMES.has(field)) {
        register(String(value), 'credential');
      } else if (secretHeaders.includes(field)) {
        register(String(value), 'secret-header');
      }
    }
    for (const cookie of side?.cookies ?? []) register(String(cookie.value), 'cookie');
  }
  for (const value of keyParameters(entry.request)) register(value, 'credential');
}

/** The value of a Set-Cookie line (RFC 6265 §4.1): what follows the name's `=` up to the first `;` (the whole pair when it has no `=`). */
function cookieValue(line: string): string {
  const semicolon = line.indexOf(';');
  const pair = semicolon < 0 ? line : line.slice(0, semicolon);
  return pair.slice(pair.indexOf('=') + 1);
}

/** The values of the query parameters and form fields that carry keys by name, in a request's URL and form body. */
function keyParameters(request: RequestFields | undefined): string[] {
  const found: string[] = [];
  const pick = (params: URLSearchParams, names: readonly string[]) => {
    for (const [name, value] of params) if (names.includes(name.toLowerCase())) found.push(value);
  };
  const query = request?.url?.indexOf('?') ?? -1;
  if (query >= 0) pick(new URLSearchParams(request!.url!.slice(query + 1).split('#', 1)[0]), KEY_QUERY_PARAMETERS);
  const form = request?.postData;
  if (typeof form?.text === 'string' && /^application\/x-www-form-urlencoded\b/i.test(form.mimeType ?? '')) pick(new URLSearchParams(form.text), [KEY_FORM_FIELD]);
  return found;
}
