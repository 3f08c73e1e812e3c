/**
 * Every way a request can differ from the suite's own writing of it, sorted by what the
 * interface makes of the difference, in one table: the active checks send by it, and the
 * traffic judge holds captured requests to it (judgements/premises.ts).
 *
 * - `same-request`: the same request under the interface (section 4: "All payloads are
 *   application/json"; RFC 8259 for the JSON text, RFC 9110 for media types and Accept).
 *   Two such requests must get the same answer: a must rule.
 * - `transport`: an HTTP transport feature the interface does not rely on. Each is judged
 *   by its own RFC and never at must; a consistent refusal with its honest status is a
 *   transport policy (info). What stays a must failure is what holds for any request: a
 *   body accepted and then stored damaged or dropped, or a 5xx.
 * - `parser-limit`: a valid body past the limits RFC 8259 §9 lets a JSON parser set
 *   (nesting deeper than {@link PARSER_DEPTH_FLOOR} levels, a container of more than
 *   {@link PARSER_WIDTH_FLOOR} members). Created, or refused (400, 413) with an Error body,
 *   is right; a 5xx or no answer is a robustness finding (should), never the verdict: a
 *   framework's default limit is not a conformance failure.
 * - `outside`: a request outside the interface (another media type, a body past the
 *   largest the suite sends, another method, a CORS preflight). Only what holds for any
 *   request is judged: a 5xx, a request without a valid key answered 2xx, and a broken
 *   Error on a 4xx the interface defines (400, 401).
 */
import type { CheckLevel } from '../requirements/catalogue.js';

/**
 * The largest request body the suite sends, in bytes (1 MiB, as compact JSON): past the
 * usual proxy and framework body limits (64 KiB, 100 KiB), at nginx's default of 1m. A
 * larger body is outside the interface (`oversized-body`): it may be refused (413) before
 * the key is looked at, where a body up to this size is answered 401 "regardless of the
 * body" (4.2/R3).
 */
export const LARGEST_BODY_BYTES = 1024 * 1024;

/**
 * The nesting depth within every mainstream JSON parser's default limit: .NET's
 * System.Text.Json 64, Ruby's json 100, serde_json 128, PHP's json_decode 512, Python's
 * recursion limit near 1,000, Jackson 1,000, Go's encoding/json 10,000. Deeper is
 * `beyond-parser-limits`.
 */
export const PARSER_DEPTH_FLOOR = 32;

/** The members of one object or array that no mainstream parser refuses by default; more is `beyond-parser-limits`. */
export const PARSER_WIDTH_FLOOR = 1_000;

/** What the interface makes of a way of writing a request. */
export type VariationKind = 'same-request' | 'transport' | 'parser-limit' | 'outside';

/** One way a request can differ from the suite's own, and how it is judged. */
export interface RequestVariation {
  id: string;
  kind: VariationKind;
  /** The highest level a rule about it may have: must for the same request, should for transport, none outside the interface. */
  level: CheckLevel | 'none';
  /** What differs, in words. */
  what: string;
  /** The rule it is judged by: a spec clause or an RFC section. */
  source: string;
  /** The status that refuses it honestly: a policy (info), never a finding. */
  honestRefusal?: { status: number; reference: string };
  /** The checks of an active run that send it; none: the suite never sends it, only a capture can show it. */
  sentBy?: readonly string[];
}

/** The table (see the module's comment). `list --format json` prints it under each check's premise. */
export const REQUEST_VARIATIONS: readonly RequestVariation[] = [
  { id: 'json-dialect', kind: 'same-request', level: 'must', what: 'how the JSON text is written: escapes, whitespace, key order, line ends', source: '4, RFC 8259', sentBy: ['client-forms-equivalent', 'create-valid-bodies', 'create-rejects-invalid-bodies'] },
  { id: 'accept', kind: 'same-request', level: 'must', what: 'an Accept that admits application/json, or none', source: '4.1, RFC 9110 §12.5.1', sentBy: ['client-forms-equivalent', 'create-valid-bodies', 'create-rejects-invalid-bodies'] },
  { id: 'media-type-parameters', kind: 'same-request', level: 'must', what: 'application/json with parameters (charset=utf-8) or in another case', source: '4, RFC 9110 §8.3', sentBy: ['client-forms-equivalent', 'create-valid-bodies', 'create-rejects-invalid-bodies'] },
  { id: 'chunked-framing', kind: 'transport', level: 'should', what: 'a request body framed with Transfer-Encoding: chunked instead of Content-Length', source: 'RFC 9112 §7.1', honestRefusal: { status: 411, reference: 'RFC 9110 §15.5.12' }, sentBy: ['chunked-body-answered', 'chunked-body-created-exactly'] },
  { id: 'expect-continue', kind: 'transport', level: 'should', what: 'Expect: 100-continue before the body (curl sends it for large bodies)', source: 'RFC 9110 §10.1.1', honestRefusal: { status: 417, reference: 'RFC 9110 §15.5.18' } },
  { id: 'http-1.0', kind: 'transport', level: 'should', what: 'an HTTP/1.0 peer: such a server is not asked to parse chunked framing', source: 'RFC 9112 §2.3, §7.1' },
  { id: 'pipelining', kind: 'transport', level: 'should', what: 'several requests sent on one connection before their answers', source: 'RFC 9112 §9.3.2' },
  { id: 'trailers', kind: 'transport', level: 'should', what: 'header fields sent after a chunked body', source: 'RFC 9112 §7.1.2' },
  {
    id: 'beyond-parser-limits',
    kind: 'parser-limit',
    level: 'should',
    what: `a valid body nested deeper than ${PARSER_DEPTH_FLOOR} levels, or with an object or array of more than ${PARSER_WIDTH_FLOOR} members`,
    source: 'RFC 8259 §9',
    sentBy: ['create-bodies-beyond-parser-limits'],
  },
  { id: 'other-media-type', kind: 'outside', level: 'none', what: 'a body sent as another media type than application/json (a form post, text, multipart)', source: '4', honestRefusal: { status: 415, reference: 'RFC 9110 §15.5.16' } },
  { id: 'oversized-body', kind: 'outside', level: 'none', what: 'a body larger than the largest the suite sends (section 8 leaves size limits open)', source: '8', honestRefusal: { status: 413, reference: 'RFC 9110 §15.5.14' } },
  { id: 'path-spelling', kind: 'outside', level: 'none', what: 'another spelling of the path of an operation: a trailing slash, a doubled slash, a dot segment, a percent-encoded character, other case, a matrix parameter, an empty query (http/path-spellings.ts)', source: '5, RFC 3986 §6.2', sentBy: ['auth-path-spellings'] },
  { id: 'other-method', kind: 'outside', level: 'none', what: 'a method the interface does not define on its paths', source: '4.1, 4.2' },
  { id: 'other-path', kind: 'outside', level: 'none', what: 'a request on a path outside the base URL: the root a path override (X-Original-URL, X-Rewrite-URL) is sent to', source: '5', sentBy: ['auth-rejects-generated-credentials'] },
  { id: 'cors-preflight', kind: 'outside', level: 'none', what: 'an OPTIONS preflight with Access-Control-Request-Method, which browsers send without credentials', source: 'Fetch standard §3.2.2' },
];

/** The variation of an id, for the code that judges it. @throws Error for an id the table does not hold (a defect of the suite). */
export function requestVariation(id: string): RequestVariation {
  const variation = REQUEST_VARIATIONS.find((candidate) => candidate.id === id);
  if (!variation) throw new Error(`no request variation ${id}`);
  return variation;
}
