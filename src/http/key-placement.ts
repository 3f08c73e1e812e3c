/**
 * The valid key anywhere but the Authorization header (spec 5/R1 puts it there alone), as
 * real APIs and clients carry keys: query parameters (RFC 6750 §2.3's `access_token`, and
 * the names API gateways use), key headers, a cookie, a form field (RFC 6750 §2.2). A
 * request that carries the key only so has a missing key and is answered 401 (5/R2).
 */
import { KEY_PLACEHOLDER, KEY_VARIABLE } from '../secrets/redactor.js';
import type { Credential } from './credential.js';

/** Where a request carries the key instead of the Authorization header. */
export type KeyPlacement =
  | { in: 'query' | 'header' | 'cookie' | 'form'; name: string }
  /** Cookies a server set, sent back as a client's cookie jar does (RFC 6265 §5.4): `Cookie: a=1; b=2`. */
  | { in: 'cookies'; header: string; shown: string; setBy: string };

/** A credential with no Authorization header, its key (or the server's cookies) placed elsewhere. */
export interface PlacedCredential extends Credential {
  header?: undefined;
  placement: KeyPlacement;
  placed: PlacedParts;
  /** Values it carries that are secret beyond the key (a server's session cookies), with how each is shown. */
  secrets?: ReadonlyArray<{ value: string; shown: string }>;
}

/** Query parameters that carry keys: RFC 6750 §2.3, and the names API gateways and SDKs use. */
export const KEY_QUERY_PARAMETERS = ['access_token', 'api_key', 'apikey', 'key', 'token'] as const;
/** Header fields that carry keys (API gateways: AWS, Azure APIM, Kong). */
export const KEY_HEADERS = ['X-API-Key', 'Api-Key'] as const;
/** The cookie that carries the key in the cookie case. */
export const KEY_COOKIE = 'api_key';
/** The form field of RFC 6750 §2.2. */
export const KEY_FORM_FIELD = 'access_token';

/** Where, in words: `the query parameter access_token`. */
export function placementWords(placement: KeyPlacement): string {
  switch (placement.in) {
    case 'query':
      return `the query parameter ${placement.name}`;
    case 'header':
      return `the header ${placement.name}`;
    case 'cookie':
      return `the cookie ${placement.name}`;
    case 'form':
      return `the form field ${placement.name}`;
    case 'cookies':
      return `the cookie ${placement.header.split(';').map((pair) => `\`${pair.split('=', 1)[0]!.trim()}\``).join(', ')} alone (set by ${placement.setBy})`;
  }
}

/**
 * Every placement of the valid key but the Authorization header, in the order they are
 * sent: each query parameter, each key header, a cookie, a form field.
 */
export function keyPlacements(apiKey: string): PlacedCredential[] {
  const placements: KeyPlacement[] = [
    ...KEY_QUERY_PARAMETERS.map((name) => ({ in: 'query' as const, name })),
    ...KEY_HEADERS.map((name) => ({ in: 'header' as const, name })),
    { in: 'cookie', name: KEY_COOKIE },
    { in: 'form', name: KEY_FORM_FIELD },
  ];
  return placements.map((placement) => ({
    name: `key-in-${placement.in}`,
    description: `the valid key in ${placementWords(placement)}, no Authorization header`,
    placement,
    placed: placedParts(placement, apiKey),
  }));
}

/**
 * The cookies a jar holds, sent back without the key: the credential of the cookie case.
 * Each value is a secret (a session the server may honour), shown `[cookie NAME]`.
 * @param cookies name and value of each cookie, as the jar sends them.
 * @param setBy which answer set them, in words: `the 201 to a keyed create`.
 */
export function jarCookies(cookies: ReadonlyArray<{ name: string; value: string }>, setBy: string): PlacedCredential {
  const header = cookies.map(({ name, value }) => `${name}=${value}`).join('; ');
  const shown = cookies.map(({ name }) => `${name}=[cookie ${name}]`).join('; ');
  const placement: KeyPlacement = { in: 'cookies', header, shown, setBy };
  return {
    name: 'cookies-alone',
    description: `${placementWords(placement)}, no Authorization header`,
    placement,
    placed: placedParts(placement, ''),
    secrets: cookies.filter(({ value }) => value !== '').map(({ name, value }) => ({ value, shown: `[cookie ${name}]` })),
  };
}

/**
 * The key as a URL query or form value, percent-encoded (RFC 3986 §2.1), and how it is
 * shown: the key variable when encoding leaves the key as it is, else a command that
 * encodes it (Node.js, which the tool runs on), so a shown request replays exactly.
 */
export function encodedKey(apiKey: string): { value: string; shown: string } {
  const value = encodeURIComponent(apiKey);
  return { value, shown: value === apiKey ? KEY_PLACEHOLDER : `$(node -p 'encodeURIComponent(process.env.${KEY_VARIABLE})')` };
}

/** What a placement adds to a request: query, header fields and a body, as sent and as shown. */
export interface PlacedParts {
  query?: { sent: string; shown: string };
  headers: Record<string, { sent: string; shown: string }>;
  body?: { sent: string; shown: string; contentType: string };
}

/** The parts of a request that carry the key (or cookies) as `placement` says. */
function placedParts(placement: KeyPlacement, apiKey: string): PlacedParts {
  const encoded = encodedKey(apiKey);
  switch (placement.in) {
    case 'query':
      return { query: { sent: `${placement.name}=${encoded.value}`, shown: `${placement.name}=${encoded.shown}` }, headers: {} };
    case 'header':
      return { headers: { [placement.name.toLowerCase()]: { sent: apiKey, shown: KEY_PLACEHOLDER } } };
    case 'cookie':
      return { headers: { cookie: { sent: `${placement.name}=${apiKey}`, shown: `${placement.name}=${KEY_PLACEHOLDER}` } } };
    case 'form':
      return { headers: {}, body: { sent: `${placement.name}=${encoded.value}`, shown: `${placement.name}=${encoded.shown}`, contentType: 'application/x-www-form-urlencoded' } };
    case 'cookies':
      return { headers: { cookie: { sent: placement.header, shown: placement.shown } } };
  }
}

/** The first key query parameter (RFC 6750 §2.3's `access_token`, a gateway's `api_key` …) `url` holds; undefined for none, or a URL that does not parse. */
export function keyQueryParameter(url: string): string | undefined {
  const query = URL.canParse(url) ? new URL(url).searchParams : undefined;
  return KEY_QUERY_PARAMETERS.find((name) => query?.has(name));
}

/**
 * Where a request without an Authorization header carries a key, read back from the
 * request as recorded or captured (the inverse of {@link keyPlacements}, by name): a key
 * query parameter, a key header, a cookie, a form field; undefined when it carries none.
 * @returns the place in words, as {@link placementWords} names it.
 */
export function carriedKey(request: { url: string; headers: Record<string, string>; body?: string }): string | undefined {
  const parameter = keyQueryParameter(request.url);
  if (parameter) return placementWords({ in: 'query', name: parameter });
  const header = KEY_HEADERS.find((name) => request.headers[name.toLowerCase()] !== undefined);
  if (header) return placementWords({ in: 'header', name: header });
  const cookie = request.headers.cookie;
  if (cookie !== undefined) {
    const names = cookie.split(';').map((pair) => pair.split('=', 1)[0]!.trim()).filter((name) => name !== '');
    return names.length === 1 ? placementWords({ in: 'cookie', name: names[0]! }) : `the cookies ${names.join(', ')}`;
  }
  const form = /^application\/x-www-form-urlencoded\b/i.test(request.headers['content-type'] ?? '') ? new URLSearchParams(request.body ?? '') : undefined;
  if (form?.has(KEY_FORM_FIELD)) return placementWords({ in: 'form', name: KEY_FORM_FIELD });
  return undefined;
}
