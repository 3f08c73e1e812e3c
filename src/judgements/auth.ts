/**
 * Judgements of authentication (spec 5, 4.2/R3): pure functions of recorded exchanges.
 */
import { expectErrorStatus, expectListArray, expectResponse, expectThat, statusWords } from '../check/expect.js';
import { variationOf } from '../check/premises.js';
import { CheckError, CheckFailure } from '../core/errors.js';
import { requestLine, type Exchange, type RecordedResponse } from '../core/exchange.js';
import { lexemeOf, parseJson } from '../json/lossless.js';

/**
 * auth-rejects-generated-credentials: no category in the list carries the tag that every
 * valid body sent without a valid key carried: nothing was created without the key
 * (4.2/R3). Only tagged items are judged: the others are the list checks'.
 */
export function noneCreatedWithoutKey(list: Exchange, tag: string): void {
  noneTagged(list, new Map([[tag, '']]));
}

/**
 * No category in the list carries one of `tags`, the descriptions of creates sent without
 * a valid key, each with where it was sent in words (empty: on the operation's own path).
 */
function noneTagged(list: Exchange, tags: ReadonlyMap<string, string>): void {
  const leaked = expectListArray(list).value.filter((item) => tags.has((item as { description?: unknown } | null)?.description as string));
  const first = leaked[0] as { id?: unknown; description: string } | undefined;
  const where = first ? tags.get(first.description) : '';
  expectThat(leaked.length === 0, `Expected no category created without a valid key, found ${leaked.length} (first id ${String(first?.id)}${where ? `, created by POST ${where}` : ''})`, list, {
    expected: 'nothing created without a valid key',
    found: `${leaked.length} created${where ? ` by POST ${where}` : ''}`,
  });
}

/**
 * auth-path-spellings: a request without a valid key on another spelling of an
 * operation's path (http/path-spellings.ts) is not let through (section 5: authentication
 * "applies to every operation of the service", whichever spelling reaches it). Any refusal
 * is allowed, as the same route or another (401, 404, 400, a redirect the suite does not
 * follow), and so is a 2xx that carries no category (a page of a web app). What fails is a
 * 2xx carrying categories: a non-empty JSON array (the list), an empty one when the list
 * with the key is empty too (what the list would answer), or a JSON object with an `id`
 * (a created Category). A 5xx is path-spellings-no-server-error's; no answer, no evidence.
 * @param spelling the spelling in words: `a trailing slash`.
 * @param listedNone whether the list with the key answered an empty array ({@link isEmptyList}).
 * @throws CheckError for an empty array when `listedNone` is unknown (undecidedEmptyArray).
 */
export function spelledPathClosed(exchange: Exchange, spelling: string, listedNone: boolean | undefined): void {
  const status = exchange.response?.status;
  if (status === undefined || status < 200 || status > 299) return;
  const value = jsonValueOf(exchange);
  if (Array.isArray(value) && value.length === 0 && listedNone === undefined) undecidedEmptyArray(exchange, spelling);
  const list = Array.isArray(value) && (value.length > 0 || listedNone === true);
  const created = !Array.isArray(value) && value !== null && typeof value === 'object' && 'id' in value;
  const found = list ? `status ${status} with ${value.length} listed item${value.length === 1 ? '' : 's'}` : `status ${status} with category ${lexemeOf((value as { id?: unknown } | undefined)?.id)} created`;
  expectThat(!list && !created, `Expected no categories without a valid key on ${requestLine(exchange)} (${spelling}), received ${found}: the operation is reached around authentication by ${spelling}`, exchange, {
    expected: 'no categories without a valid key',
    found: `${found} (${spelling})`,
  });
}

/** The JSON value of an answer's body; undefined when it is not UTF-8 JSON. */
function jsonValueOf(exchange: Exchange): unknown {
  const response = exchange.response;
  const parsed = response?.utf8Valid ? parseJson(response.body) : undefined;
  return parsed?.ok ? parsed.json.value : undefined;
}

/**
 * Whether a list answered 200 with an empty JSON array (auth-path-spellings: what a leaked
 * list of an empty store answers); undefined when it answered no list (no answer, another
 * status, no JSON array): then nothing tells an empty array elsewhere from the list.
 */
export function isEmptyList(list: Exchange | undefined): boolean | undefined {
  const value = list?.response?.status === 200 ? jsonValueOf(list) : undefined;
  return Array.isArray(value) ? value.length === 0 : undefined;
}

/**
 * An empty JSON array answered without a key, where the list with the key answered no list
 * to compare it with: the list of an empty store, or a page that lists nothing? Not judged,
 * never passed: a list that timed out on a loaded machine must not let a leak through.
 * @throws CheckError naming the request and why it is not judged.
 */
function undecidedEmptyArray(exchange: Exchange, what: string): never {
  throw new CheckError(`${requestLine(exchange)} (${what}) answered ${exchange.response!.status} with an empty array, and the list with the key answered no list to compare it with: not judged`);
}

/**
 * auth-path-spellings: the keyed list after creates sent without a key on other spellings
 * of the path holds none of them (section 5).
 * @param tags each create's description, with its path and spelling in words.
 */
export function spelledCreatesAbsent(list: Exchange, tags: ReadonlyMap<string, string>): void {
  noneTagged(list, tags);
}

/**
 * The defect of every request without the key that a server lets through: one root cause
 * however many credentials, operations and paths show it (report/findings.ts), as a server
 * that accepts any key has one defect, not one per credential.
 */
export const LET_THROUGH = 'requests without a valid key let through (5/R2)';

/**
 * The 401 rules (5/R2, 4.2/R3, the 401 row of 4.1): a request without a valid key is
 * answered 401. An answer that lets it through (a 2xx, or `keyedStatus`, what the same
 * request with the key gets, for the operations whose answers are not shown) carries the
 * defect {@link LET_THROUGH}; any other status is found as itself.
 * @param keyedStatus the status the same request got with the key, when the check asked.
 * @throws CheckFailure with the status found.
 */
export function refusedWithoutKey(exchange: Exchange, keyedStatus?: number): RecordedResponse {
  const response = expectResponse(exchange);
  const { status } = response;
  if (status === 401) return response;
  // 501 is a handler's own answer (not implemented); another 5xx may come before authentication as well: no sign either way.
  const through = (status >= 200 && status < 300) || (status === keyedStatus && (status < 500 || status === 501));
  const words = statusWords(response);
  throw new CheckFailure(`Expected status 401, received ${words}${through ? ': the request without a valid key was let through' : ''}`, exchange, {
    expected: 'status 401',
    found: `status ${words}${through ? ', let through without a valid key' : ''}`,
    ...(through ? { defect: LET_THROUGH } : {}),
  });
}

/**
 * auth-rejects-generated-credentials: a request with an invalid credential is answered 401
 * with an Error body whose status is 401 (5/R2, 4.2/R3). A success names what the server
 * accepted: `the server accepted the valid key as a Basic user name (Basic base64(KEY:))`.
 * @param words the credential in words (arbitraries/invalid-credential.ts `credentialWords`).
 */
export function credentialRefused(exchange: Exchange, words: string): void {
  const status = expectResponse(exchange).status;
  const accepted = status >= 200 && status < 300;
  expectThat(!accepted, `Expected status 401, received ${status}: the server accepted ${words}`, exchange, { expected: 'status 401', found: `status ${status}: accepted ${words}`, defect: LET_THROUGH });
  expectThat(status === 401, `Expected status 401, received ${statusWords(exchange.response!)} to ${words}`, exchange, { expected: 'status 401', found: `status ${status} to ${words}` });
  expectErrorStatus(exchange, 401);
}

/**
 * What the list with the key showed, for telling a leak apart from a refusal: whether it was
 * empty, and the header fields that carry what the list is (a count, its entity tag, its
 * length), with their values.
 */
export interface KeyedList {
  /** Whether it answered an empty array; undefined when it answered no list ({@link isEmptyList}). */
  empty: boolean | undefined;
  headers: ReadonlyArray<[name: string, value: string]>;
}

/** Header fields whose value tells what a list holds: a count, an entity tag, a range, a length (of more than an empty array). */
const LIST_HEADERS = /^(x-total-count|x-total|x-count|x-result-count|total-count|content-range|etag|last-modified|content-length)$/;

/**
 * The list with the key, as {@link revealsNothing} compares with it: from a 200 list, its
 * list-telling header fields; from anything else, none (nothing to compare).
 */
export function keyedListOf(list: Exchange | undefined): KeyedList {
  const response = list?.response;
  if (!list || response?.status !== 200) return { empty: undefined, headers: [] };
  const empty = isEmptyList(list);
  const headers = Object.entries(response.headers).filter(([name, value]) => LIST_HEADERS.test(name) && !(name === 'content-length' && Number(value) <= 2));
  return { empty, headers };
}

/**
 * auth-rejects-generated-credentials, on a request outside the interface (another method,
 * HEAD, OPTIONS; another spelling of the path; a path override on the root) that lacks the
 * key: it reveals nothing of the categories (section 5: authentication applies to every
 * operation, whichever way it is reached). HEAD is GET without content (RFC 9110 §9.3.2):
 * any 2xx to it on the list's path is the list let through. Any other 2xx fails when it
 * carries categories (a JSON array of them, or an empty one when the keyed list is empty
 * too, or a created Category) or a header field the keyed list carried with the same value
 * (`X-Total-Count: 3`, its ETag, its Content-Length). Any refusal passes (401, 404, 405, a
 * 400 to what is not valid HTTP, a 204 to a CORS preflight), and so does a 2xx that tells
 * nothing (an `Allow` list); a 5xx is the server-error checks' (path-spellings-no-server-error
 * for another method or spelling).
 * @param words the bypass in words (arbitraries/auth-bypass.ts `bypassWords`).
 * @param onListPath whether the request was on the list's path (as written or spelled otherwise), where HEAD is the list.
 * @throws CheckFailure with what was revealed, under the defect {@link LET_THROUGH}.
 */
export function revealsNothing(exchange: Exchange, words: string, keyed: KeyedList, onListPath: boolean): void {
  const response = exchange.response;
  if (!response || response.status < 200 || response.status > 299) return;
  const value = exchange.request.method.toUpperCase() === 'HEAD' ? undefined : jsonValueOf(exchange);
  const listed = Array.isArray(value) && (value.length > 0 || keyed.empty === true);
  const created = !Array.isArray(value) && value !== null && typeof value === 'object' && 'id' in value;
  const told = keyed.headers.filter(([name, keyedValue]) => response.headers[name] === keyedValue).map(([name, v]) => `\`${canonicalName(name)}: ${v}\``);
  const head = exchange.request.method.toUpperCase() === 'HEAD' && onListPath;
  if (!listed && !created && told.length === 0 && !head) {
    if (Array.isArray(value) && keyed.empty === undefined) undecidedEmptyArray(exchange, words);
    return;
  }
  const what = [
    ...(listed ? ['the list'] : []),
    ...(created ? [`category ${lexemeOf((value as { id?: unknown }).id)} created`] : []),
    ...(told.length > 0 ? [told.join(', ')] : []),
  ];
  const found = `${statusWords(response)}${what.length > 0 ? ` with ${what.join(' and ')}` : ''}`;
  const why = head && !listed && !created ? ': HEAD is GET without content (RFC 9110 §9.3.2), the list let through' : '';
  throw new CheckFailure(`${words} answered ${found}${why}: expected a refusal, and nothing of the categories without a valid key`, exchange, {
    expected: 'a refusal without a valid key',
    found: `status ${found}`,
    defect: LET_THROUGH,
  });
}

/** A header field's name as clients commonly write it: `X-Total-Count`, `ETag`. */
function canonicalName(name: string): string {
  return name === 'etag' ? 'ETag' : name.replace(/(^|-)([a-z])/g, (_m, dash: string, c: string) => dash + c.toUpperCase());
}

/**
 * unauthorized-invalid-token: the 401 to an unknown key challenges with
 * `error="invalid_token"` (RFC 6750 §3.1). Auth-param values may be quoted or not, and
 * their names are case-insensitive (RFC 9110 §11.2).
 */
export function challengesInvalidToken(exchange: Exchange): void {
  const challenge = refusedWithoutKey(exchange).headers['www-authenticate'];
  expectThat(/(^|[\s,])error\s*=\s*"?invalid_token"?/i.test(challenge ?? ''), `Expected a Bearer challenge with error="invalid_token", received ${challenge === undefined ? 'no WWW-Authenticate' : `WWW-Authenticate: ${challenge}`}`, exchange, {
    expected: 'error="invalid_token"',
    found: challenge ?? 'no WWW-Authenticate',
  });
}

/**
 * auth-key-outside-authorization: a request that carries the key (or a server's cookies)
 * anywhere but the Authorization header has a missing key (5/R1: "A request carries the
 * header Authorization with the bearer scheme followed by the API key") and is answered
 * 401 (5/R2). A request outside the interface (a form post: its media type) may be refused
 * before the key is looked at, as the active run allows (check/premises.ts): only a 2xx
 * fails it. A 5xx is no-server-error's.
 * @param where where the request carried it, in words (key-placement.ts `placementWords`).
 */
export function keyElsewhereRefused(exchange: Exchange, where: string): void {
  const status = expectResponse(exchange).status;
  if (status >= 500) return;
  const accepted = status >= 200 && status < 300;
  const found = `status ${status}${accepted ? `: authenticated by ${where}` : ''}`;
  const outside = variationOf(exchange.request);
  if (outside) {
    expectThat(!accepted, `Expected a request carrying the key only in ${where} to be refused, received ${status}: the server authenticated it by ${where}`, exchange, { expected: 'no 2xx without Authorization', found });
    return;
  }
  expectThat(status === 401, `Expected 401 to a request carrying ${where} and no Authorization header (5/R1: the key goes in Authorization), received ${status}${accepted ? `: the server authenticated it by ${where}` : ''}`, exchange, { expected: 'status 401', found });
}
