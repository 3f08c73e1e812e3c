/**
 * How much a requirement, and a check of it, weighs: `must` for the spec's rules (they
 * decide the verdict), `should` for HTTP standards and robustness the spec does not state,
 * `info` for observations of what the spec leaves open.
 */
export type CheckLevel = 'must' | 'should' | 'info';

/** One normative statement of the spec (or, for `should`, of an HTTP standard). */
export interface Requirement {
  /** Stable id, e.g. `R-4.2-R2`. */
  id: RequirementId;
  /** Section and rule, as checks cite them: `4.2/R2`, `7`. */
  clause: string;
  level: CheckLevel;
  /** The sentence, quoted from the spec (or the standard). */
  quote: string;
  /** How the suite reads the sentence where its wording leaves a choice, and why. */
  interpretation?: string;
  /**
   * Why no check can test it, when none can: the requirement is then reported
   * `inapplicable`, so nobody mistakes silence for coverage.
   */
  inapplicable?: string;
}

/**
 * Every normative statement of `pet-store-categories.md` (rules of 4.1, 4.2, 5 and 7,
 * the shapes of section 2, the version segment of 9), and the HTTP rules the `should`
 * checks enforce. Checks name the ids they test; the report traces each to its outcome.
 */
export const REQUIREMENTS = [
  { id: 'R-2-NEWCATEGORY', clause: '2', level: 'must', quote: 'NewCategory (request body for creating a category): name | string | yes …; description | string | no' },
  { id: 'R-2-CATEGORY', clause: '2', level: 'must', quote: 'A Category has every field of NewCategory plus: id | integer | int64 | yes' },
  { id: 'R-2-ID-UNIQUE', clause: '2', level: 'must', quote: 'id … Unique identifier, assigned by the service on creation.' },
  { id: 'R-2-ID-ASSIGNED', clause: '2', level: 'must', quote: 'The client never supplies it.' },
  { id: 'R-2-ERROR', clause: '2', level: 'must', quote: 'Error: code | string | yes; message | string | yes; status | integer | yes' },
  { id: 'R-4-JSON', clause: '4', level: 'must', quote: 'All payloads are `application/json`.' },
  {
    id: 'R-4-ANSWERS',
    clause: '4',
    level: 'must',
    quote: '4.1: Success | 200 …; Error | 401 (Error body) … 4.2: Success | 201 …; Errors | 400 (Error body) …; 401 (Error body) …',
    interpretation:
      'Every request of the run has one of these answers: a list 200 or 401, a create 201, 400 or 401. A server error (5xx) is none of them, ' +
      'so it fails this requirement whichever check sent the request, edge-case probes at level info included: a server may refuse a value ' +
      'the spec leaves open (400, or 413 for size, section 8), never crash on it. This is the one place where an observation decides the verdict. ' +
      'A 503 with Retry-After is a refusal to be waited out, like a 429, not an answer.',
  },
  { id: 'R-4-AUTH', clause: '4', level: 'must', quote: 'Every operation requires authentication (section 5).' },
  { id: 'R-4.1-200', clause: '4.1', level: 'must', quote: 'Success | 200; body is a JSON array of Category objects' },
  { id: 'R-4.1-401', clause: '4.1', level: 'must', quote: 'Error | 401 (Error body) when the API key is missing or invalid' },
  { id: 'R-4.1-R1', clause: '4.1/R1', level: 'must', quote: 'The response contains all categories available for classifying pets.' },
  { id: 'R-4.1-R2', clause: '4.1/R2', level: 'must', quote: 'Pagination, filtering and ordering are not defined by the interface; the response is the whole array.' },
  { id: 'R-4.2-400', clause: '4.2', level: 'must', quote: '400 (Error body) when the body is missing, lacks a required field, or contains invalid values' },
  {
    id: 'R-4.2-R1',
    clause: '4.2/R1',
    level: 'must',
    quote: 'When the body is valid, then the response is 201 and carries the new Category with an `id` of type int64.',
    interpretation:
      'With section 2 ("A Category has every field of NewCategory"), the created Category carries exactly the name and description sent: ' +
      'trimming, case folding, Unicode normalisation, type coercion or truncation fail it. Section 8 says length limits exist but are not shown: ' +
      'a server that refuses every value longer than some L with 400 or 413 and accepts every shorter one has a limit, reported as an ' +
      'observation, unless L is below 64 characters (an everyday name). Control characters may be refused with 400. A crash, a hang or an ' +
      'altered value is never a limit. The same name sent twice is two categories, each with its own id.',
  },
  { id: 'R-4.2-R2', clause: '4.2/R2', level: 'must', quote: 'When `name` is absent, then the response is 400.' },
  { id: 'R-4.2-R3', clause: '4.2/R3', level: 'must', quote: 'When the Authorization header is missing or carries an invalid key, then the response is 401, regardless of the body.' },
  { id: 'R-5-R1', clause: '5/R1', level: 'must', quote: 'A request carries the header `Authorization` with the bearer scheme followed by the API key (`Authorization: Bearer <API_KEY>`).' },
  { id: 'R-5-R2', clause: '5/R2', level: 'must', quote: 'A request with a missing or invalid key is answered with 401 and an Error body.' },
  { id: 'R-5-SCOPE', clause: '5', level: 'must', quote: 'Scope | applies to every operation of the service' },
  { id: 'R-7-SHAPE', clause: '7', level: 'must', quote: 'Every error response has the Error shape (`code`, `message`, `status`; all required), with content type `application/json`.' },
  { id: 'R-7-STATUS', clause: '7', level: 'must', quote: '`status` equals the HTTP status code of the response.' },
  {
    id: 'R-9-R1',
    clause: '9/R1',
    level: 'must',
    quote: 'The interface version is 1.0.0.',
    inapplicable: 'no response carries the interface version; the suite checks version 1.0.0 of the spec',
  },
  {
    id: 'R-9-R2',
    clause: '9/R2',
    level: 'must',
    quote: 'The version is part of the base address as the path segment `/v1`, on both the production and the staging base address.',
    inapplicable: 'enforced on the configuration: a base URL without /v1 is refused (exit 2) before any request',
  },
  {
    id: 'R-9-R3',
    clause: '9/R3',
    level: 'must',
    quote: 'GET /pets/{petId} is deprecated and has a sunset date.',
    inapplicable: 'how deprecation and the sunset date are signalled is not shown (the should check pets-deprecation-signalled tests the standard headers, H-DEPRECATION-SUNSET)',
  },
  {
    id: 'H-DEPRECATION-SUNSET',
    clause: '9/R3',
    level: 'should',
    quote: 'RFC 9745 §2 and RFC 8594 §3: a deprecated resource signals it with the Deprecation header field (a date), and the date it will stop responding with the Sunset header field (an HTTP-date).',
  },
  { id: 'H-401-CHALLENGE', clause: '5', level: 'should', quote: 'RFC 9110 §11.6.1: A server generating a 401 (Unauthorized) response MUST send a WWW-Authenticate header field containing at least one challenge.' },
  {
    id: 'H-ANY-REQUEST-NO-5XX',
    clause: '5',
    level: 'should',
    quote: 'RFC 9110 §15.6: The 5xx (Server Error) class of status code indicates that the server is aware that it has erred or is incapable of performing the requested method.',
    interpretation: 'A request on another spelling of an operation’s path is outside the interface: it may be answered 401, 404, 400 or a redirect, as the same route or another. A server error to it is a fault of the server’s router or firewall, never of the interface’s operations.',
  },
  {
    id: 'H-PERSISTENT-CONNECTIONS',
    clause: '4',
    level: 'should',
    quote: 'RFC 9112 §9.3: HTTP/1.1 defaults to the use of "persistent connections", allowing multiple requests and responses to be carried over a single connection.',
    interpretation: 'A request that goes unanswered on a kept-alive connection amid the run’s others, and is answered when sent again alone on a new connection, shows a connection the server does not serve, not an operation that fails: a should finding. A limit on connections (a reset beyond some number at once) is a policy (section 8), observed and kept to.',
  },
  {
    id: 'H-JSON-PARSER-LIMITS',
    clause: '4.2',
    level: 'should',
    quote: 'RFC 8259 §9: An implementation may set limits on the size of texts that it accepts. An implementation may set limits on the maximum depth of nesting.',
    interpretation: 'A valid body nested past every mainstream parser’s default limit (32 levels), or spread past 1,000 members, may be refused (400, 413 with an Error body) or created. A 5xx or no answer to it is a parser’s default limit met without grace: a robustness finding, never a conformance failure.',
  },
  { id: 'H-JSON-NO-BOM', clause: '4', level: 'should', quote: 'RFC 8259 §8.1: Implementations MUST NOT add a byte order mark (U+FEFF) to the beginning of a networked-transmitted JSON text.' },
  {
    id: 'H-CHUNKED-REQUEST',
    clause: '4.2',
    level: 'should',
    quote: 'RFC 9112 §7.1: A recipient MUST be able to parse the chunked transfer coding because it plays a crucial role in framing messages when the content size is not known in advance.',
    interpretation: 'A server that will not read a chunked body refuses it with 411 Length Required (RFC 9110 §15.5.12): a transport policy. Reading it as missing (400) or leaving it unanswered fails this requirement; a server that answers in HTTP/1.0 is not asked.',
  },
  { id: 'H-AUTH-SCHEME-CASE', clause: '5', level: 'should', quote: 'RFC 9110 §11.1: It uses a case-insensitive token to identify the authentication scheme.' },
  { id: 'H-401-INVALID-TOKEN', clause: '5', level: 'info', quote: 'RFC 6750 §3.1: invalid_token: The access token provided is expired, revoked, malformed, or invalid for other reasons. The resource SHOULD respond with the HTTP 401 (Unauthorized) status code.' },
  {
    id: 'O-CORS-PREFLIGHT',
    clause: '5',
    level: 'info',
    quote: 'Fetch standard §4.8: a CORS-preflight request is sent without credentials; a page on another origin calls the API only once its preflight is answered with an ok status.',
    interpretation: 'Section 5 requires the key on every operation; a preflight is no operation of the interface. A preflight answered 401 is observed: the API cannot be called from a browser page on another origin.',
  },
  {
    id: 'O-EDGE-INPUTS',
    clause: '8',
    level: 'info',
    quote: 'Rate limits, size limits, length limits for fields, and quotas: not shown.',
  },
] as const satisfies ReadonlyArray<Omit<Requirement, 'id'> & { id: string }>;

/** The id of a requirement of the catalogue: a check citing any other fails to compile. */
export type RequirementId = (typeof REQUIREMENTS)[number]['id'];

/** The catalogue, each entry in the shape of a {@link Requirement}. */
export const CATALOGUE: readonly Requirement[] = REQUIREMENTS;


/** What the spec marks "not shown": out of scope, listed so silence is not taken for coverage. */
export const OUT_OF_SCOPE: readonly { clause: string; what: string }[] = [
  { clause: '1', what: 'The purpose, behaviour and payloads of the pets and store groupings, and of operations on a single pet and on store orders.' },
  { clause: '2', what: 'Fields of pet and order records.' },
  { clause: '3', what: 'States and transitions of any resource.' },
  { clause: '4.3', what: 'Parameters, request and response shapes, and status codes of GET /pets/{petId} and GET /store/orders, and which endpoints carry a stability marker.' },
  { clause: '5', what: 'How an API key is obtained, its lifetime and its permissions.' },
  { clause: '6', what: 'Events, webhooks and notifications.' },
  { clause: '7', what: 'The set of possible `code` values and any other status codes.' },
  { clause: '8', what: 'Rate limits, size limits, length limits for fields, and quotas.' },
];
