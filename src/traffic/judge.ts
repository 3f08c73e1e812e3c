/**
 * Judges traffic the suite did not send (a HAR, the proxy's exchanges) by the rules of the
 * spec that an exchange shows, with the active checks' own judgement functions and under
 * their ids: a rule judged here is the same rule, so a capture's outcome and an active
 * run's join check by check. Exchanges are judged one by one as they arrive, and across
 * the capture in time order: a list is held to the creates that ended before it started,
 * never to one that overlapped it. State is kept per category, never per exchange, so
 * hours of traffic are judged in bounded memory.
 */
import { ListedItems, expectCreated, expectErrorStatus, expectStatus, expectThat, type SentFields } from '../check/expect.js';
import { failureRecord } from '../check/failure-record.js';
import { premiseOf, variationOf } from '../check/premises.js';
import { isRefusal, mayBeRefused } from '../check/refusal.js';
import { NOT_IN_TRAFFIC } from '../check/reasons.js';
import type { CheckDefinition, CreatedCategory } from '../check/types.js';
import { CheckFailure, hasCode } from '../core/errors.js';
import { requestLine, targetAsWritten } from '../core/exchange.js';
import { carriedKey, keyQueryParameter } from '../http/key-placement.js';
import type { RequestVariation } from '../http/request-variations.js';
import { challengesInvalidToken, credentialRefused, keyedListOf, keyElsewhereRefused, refusedWithoutKey, revealsNothing, spelledPathClosed, type KeyedList } from '../judgements/auth.js';
import { capturedBypassWords, overridesPathTo } from '../arbitraries/auth-bypass.js';
import { spellingOf, type PathSpelling } from '../http/path-spellings.js';
import { chunkedBodyAnswered, chunkedCreatedExactly, chunkedNotAsked } from '../judgements/transport.js';
import { clientIdNotAdopted, createdExactly, createdListed, deepBodyAnswered, idsFresh, PARSER_LIMITS_WORDS, type SentCategory } from '../judgements/create.js';
import { signalsDeprecation } from '../judgements/deprecation.js';
import { INVARIANTS, invariantRecord, type Invariant, type InvariantId } from '../judgements/invariants.js';
import { listAnswers200Array, listIdsUnique, listItemsAreCategories } from '../judgements/list.js';
import type { CheckResult, TrafficSummary } from '../report/model.js';
import type { CapturedExchange } from './capture.js';
import { isInvalidCredential, isValidCredential } from './credentials.js';
import { TRAFFIC_CHECKS } from './checks.js';
import { INVALID_WITHOUT_SCHEME, bodyKind, fieldsKeyOf, outsidePolicy, preflightAnswered, refusedAbsent, waitedOut, type Refusal } from './rules.js';

/** A failed judgement of one captured exchange, as the proxy prints it the moment it happens. */
export interface TrafficFinding {
  checkId: string;
  level: CheckDefinition['level'];
  /** The exchange's number in the capture. */
  seq: number;
  /** `POST /v1/categories → 200`. */
  exchange: string;
  message: string;
}

/** What a capture held so far: the report's `traffic` (model.ts) but its files. */
export type TrafficCounts = Omit<TrafficSummary, 'files'>;

/** One judgement of one check on one captured exchange, as it is made (for tools that compare a capture with a run). */
export interface Judgement {
  checkId: string;
  /** The exchange's number in the capture. */
  seq: number;
  failed: boolean;
}

/** One check's tally over the capture. */
interface Tally {
  judged: number;
  failures: number;
  first?: CheckFailure;
  /** Policies and limits seen (a refusal the premise allows), as the active run observes them. */
  observations?: Set<string>;
}

/** Bodies not kept listed one by one in the report, at most: past it, counted. */
const MAX_DROPPED_LISTED = 100;

/** Distinct origins of left-alone entries remembered, at most. */
const MAX_ORIGINS_NOTED = 10;

/** Refused creates kept to judge later lists against, at most: past it, the oldest are let go (said in the report). */
const MAX_TRACKED_REFUSALS = 10_000;

/** The operation of an exchange, by method and path under the base URL; undefined: not the interface's. */
type Operation = 'list' | 'create' | 'pets' | 'orders';

/** A judgement of one check on one exchange: throws CheckFailure, or returns false when the exchange is not one it judges. */
type Judging = () => boolean | void;
type Judge = (checkId: string, judgement: Judging) => void;

/** Whether the capture lost the response body (left out, cut short, not inflating): judgements that read it skip the exchange. */
function lostResponseBody(exchange: CapturedExchange): boolean {
  return exchange.missing.some((what) => what.startsWith('response body'));
}

/** The invariants that read no body, judged on an exchange whose body the capture did not keep. */
const HEADER_INVARIANTS = ['answers-allowed-status', 'no-server-error', 'error-content-type-json', 'success-content-type-json', 'unauthorized-has-challenge'] as const satisfies readonly InvariantId[];

/** What each body-free invariant that applies finds in an exchange (as invariantRecord's `problems`). */
function headerProblems(exchange: CapturedExchange): Map<InvariantId, string | null | undefined> {
  const response = exchange.response!;
  const problems = new Map<InvariantId, string | null | undefined>();
  for (const id of HEADER_INVARIANTS) {
    const invariant: Invariant = INVARIANTS[id];
    if (invariant.applies(response, exchange) && premiseOf(id).holds(exchange.request, response.status)) problems.set(id, invariant.problem(response, () => ({ ok: false, reason: 'not kept in the capture' }), exchange));
  }
  return problems;
}

/** The ids listed under a pair of fields, as a set of its own. */
function idSet(ids: string | Set<string> | undefined): Set<string> {
  return new Set(typeof ids === 'string' ? [ids] : ids);
}

/**
 * The judge of one capture. `judge` takes each exchange as it completes (in the order a
 * HAR lists them, or as the proxy sees them end); `results` gives every check's outcome.
 */
export class TrafficJudge {
  readonly counts: TrafficCounts = { entries: 0, judged: 0, other: 0, missing: {} };
  readonly #definitions: ReadonlyMap<string, CheckDefinition>;
  readonly #origin: string;
  readonly #basePath: string;
  readonly #tallies = new Map<string, Tally>();
  /** Categories created with 201, by id: their fields, when their create ended, and whether the 201 carried them exactly (only those are looked for in lists). */
  readonly #created = new Map<string, { id: bigint; fields: SentFields; endMs: number; seq: number; exact: boolean }>();
  /** Every id seen in a list, with when the first list holding it ended (ids given before a create). */
  readonly #listedIds = new Map<string, number>();
  /** Ids listed under each pair of fields: what a refused create's fields already named. */
  readonly #listedByFields = new Map<string, string | Set<string>>();
  readonly #refusals: Refusal[] = [];
  #refusalsLetGo = 0;
  /** Origins (and paths) of the entries that were not the interface's, with their counts. */
  readonly #otherOrigins = new Map<string, number>();
  /** When the first complete list ended: a refusal before it has no known state to compare with. */
  #firstListEndMs = Infinity;
  /** The body of the last list remembered (#remember). */
  #lastRemembered: string | undefined;
  /** What the latest complete list with the key told (auth-rejects-generated-credentials: a refusal that tells the same revealed it; auth-path-spellings: whether it was empty). */
  #keyedList: KeyedList = keyedListOf(undefined);

  /**
   * @param baseUrl the interface's base URL, ending with `/v1` (9/R2).
   * @param definitions every check of the suite (runner/list.ts): the judged ones report under their own definition; the traffic's own (TRAFFIC_CHECKS) join them.
   * @param onJudgement called with every judgement as it is made.
   */
  constructor(
    baseUrl: string,
    definitions: readonly CheckDefinition[],
    private readonly onJudgement: (judgement: Judgement) => void = () => {},
  ) {
    const url = new URL(baseUrl);
    this.#origin = url.origin;
    this.#basePath = url.pathname.replace(/\/+$/, '');
    this.#definitions = new Map([...definitions, ...TRAFFIC_CHECKS].map((definition) => [definition.id, definition]));
  }

  /** The operation an exchange is of, or undefined when it is not the interface's (another origin, path or method). */
  operationOf(exchange: CapturedExchange): Operation | undefined {
    if (!this.#atOrigin(exchange)) return undefined;
    // The path as written: another spelling of it (a dot segment a parsed URL resolves) is no operation (auth-path-spellings).
    const written = targetAsWritten(exchange.request.url);
    if (!written.path.startsWith(`${this.#basePath}/`)) return undefined;
    const path = written.path.slice(this.#basePath.length);
    const method = exchange.request.method;
    if (path === '/categories') return written.query === '' || (method !== 'GET' && method !== 'POST') ? undefined : method === 'GET' ? 'list' : 'create';
    if (method !== 'GET') return undefined;
    if (/^\/pets\/[^/]+$/.test(path)) return 'pets';
    return path === '/store/orders' ? 'orders' : undefined;
  }

  /**
   * Judges one exchange by every rule it shows, then by what earlier ones made of the
   * state. Never throws for what the exchange holds: a judgement's failure is a finding.
   * @returns the findings of this exchange.
   */
  judge(exchange: CapturedExchange): TrafficFinding[] {
    this.counts.entries++;
    for (const what of exchange.repaired) (this.counts.repaired ??= {})[what] = (this.counts.repaired[what] ?? 0) + 1;
    const findings: TrafficFinding[] = [];
    const judge: Judge = (checkId, judgement) => {
      const finding = this.#apply(checkId, exchange, judgement);
      if (finding) findings.push(finding);
    };
    const variation = variationOf(exchange.request);
    // A CORS preflight is no operation of the interface: observed, and left alone.
    if (variation?.id === 'cors-preflight' && exchange.response && this.#underBase(exchange)) judge('cors-preflight-answered', () => void preflightAnswered(exchange));
    const operation = this.operationOf(exchange);
    const spelling = operation || !this.#atOrigin(exchange) ? undefined : spellingOf(exchange.request.url);
    if (spelling && exchange.response && !exchange.superseded && !waitedOut(exchange.response)) {
      this.#judgeSpelling(exchange, spelling, judge);
      return findings;
    }
    // A request without the key around the interface's methods or paths (a CORS preflight is left alone, as above).
    const around = !operation && !spelling && variation?.id !== 'cors-preflight' && isInvalidCredential(exchange.credential);
    const bypassed = around && exchange.response && !exchange.superseded && !waitedOut(exchange.response) ? this.#bypassedPath(exchange) : undefined;
    if (bypassed) {
      this.#judgeBypass(exchange, bypassed, judge);
      return findings;
    }
    if (!operation || !exchange.response || exchange.superseded || waitedOut(exchange.response)) {
      this.counts.other++;
      if (!operation && variation?.id !== 'cors-preflight') this.#noteOrigin(exchange.request.url);
      return findings;
    }
    this.counts.judged++;
    for (const what of exchange.missing) {
      const [, body = what, reason = 'not kept'] = /^(.*?) \((.*)\)$/.exec(what) ?? [];
      this.counts.missing[body] = (this.counts.missing[body] ?? 0) + 1;
      if ((this.counts.dropped ??= []).length < MAX_DROPPED_LISTED) this.counts.dropped.push({ exchange: exchange.seq, body, reason });
    }
    this.#judgeInvariants(exchange, judge);
    const credential = exchange.credential;
    const invalid = isInvalidCredential(credential);
    const status = exchange.response.status;
    // A key carried elsewhere, or a request outside the interface: never let through without the key, as the active run holds it.
    const elsewhere = credential === 'missing' ? carriedKey(exchange.request) : undefined;
    if (invalid && (elsewhere !== undefined || variation?.kind === 'outside')) {
      const inQuery = elsewhere !== undefined && keyQueryParameter(exchange.request.url) !== undefined;
      judge(inQuery ? 'auth-key-in-query' : 'auth-key-outside-authorization', () => void keyElsewhereRefused(exchange, elsewhere ?? `no valid key in its Authorization header (${credential})`));
    } else if (invalid) {
      // 5/R2, 4.2/R3: 401 to a missing or invalid key, whatever the operation and body.
      const scoped = operation === 'pets' ? 'pets-requires-auth' : operation === 'orders' ? 'orders-requires-auth' : `${operation}-401-${credential}`;
      // Not every credential has a check of its own per operation (a scheme other than Bearer on a list): the property below judges those.
      if (this.#definitions.has(scoped)) judge(scoped, () => void refusedWithoutKey(exchange));
      // The property's own rule: 401 with an Error body whose status is 401 (the status alone, when the capture lost the body).
      const refused = lostResponseBody(exchange) ? () => void expectStatus(exchange, 401) : () => void credentialRefused(exchange, capturedBypassWords(exchange.request, credential));
      if (operation === 'list' || operation === 'create') judge('auth-rejects-generated-credentials', refused);
      if (credential !== 'missing') judge('unauthorized-invalid-token', () => !INVALID_WITHOUT_SCHEME.has(credential) && void challengesInvalidToken(exchange));
    }
    if (credential.startsWith('valid-')) judge('auth-scheme-case-insensitive', () => expectThat(status !== 401, `Expected the key to be accepted under the scheme spelled ${credential.slice(6)}, received 401`, exchange, { expected: 'the key accepted', found: 'status 401' }));
    if (operation === 'pets' && isValidCredential(credential)) judge('pets-deprecation-signalled', () => void signalsDeprecation(exchange));
    this.#observePolicy(variation, exchange);
    if (operation === 'list') this.#judgeList(exchange, judge);
    if (operation === 'create') this.#judgeCreate(exchange, judge);
    return findings;
  }

  /** Whether an exchange went to the interface's origin. */
  #atOrigin(exchange: CapturedExchange): boolean {
    try {
      return new URL(exchange.request.url).origin === this.#origin;
    } catch {
      return false;
    }
  }

  /**
   * A request on another spelling of an operation's path (http/path-spellings.ts): outside
   * the interface, judged by what holds for any request (no 5xx), and, without a valid key,
   * by auth-path-spellings as the active run judges its own.
   */
  #judgeSpelling(exchange: CapturedExchange, spelling: PathSpelling, judge: Judge): void {
    this.counts.judged++;
    this.#judgeInvariants(exchange, judge);
    if (!isInvalidCredential(exchange.credential)) return;
    judge('auth-path-spellings', () => void spelledPathClosed(exchange, spelling.words, this.#keyedList.empty));
    judge('auth-rejects-generated-credentials', () => void revealsNothing(exchange, capturedBypassWords(exchange.request, exchange.credential), this.#keyedList, true));
  }

  /**
   * Where a request outside the interface reaches the list around its method or path: the
   * list's own path by another method (HEAD, OPTIONS, any), or the origin with a header
   * that overrides the path to it (X-Original-URL); undefined for any other request.
   */
  #bypassedPath(exchange: CapturedExchange): 'list-path' | 'path-override' | undefined {
    if (!this.#atOrigin(exchange)) return undefined;
    const written = targetAsWritten(exchange.request.url);
    if (written.path === `${this.#basePath}/categories`) return 'list-path';
    return overridesPathTo(exchange.request.headers, `${this.#basePath}/categories`) ? 'path-override' : undefined;
  }

  /**
   * A request without the key that reaches around the interface's methods or paths
   * (arbitraries/auth-bypass.ts): judged by what holds for any request (the invariants'
   * premises), and by auth-rejects-generated-credentials as the active run judges its own:
   * nothing of the categories revealed.
   */
  #judgeBypass(exchange: CapturedExchange, where: 'list-path' | 'path-override', judge: Judge): void {
    this.counts.judged++;
    this.#judgeInvariants(exchange, judge);
    const credential = exchange.credential;
    judge('auth-rejects-generated-credentials', () => void revealsNothing(exchange, capturedBypassWords(exchange.request, credential), this.#keyedList, where === 'list-path'));
  }

  /** Whether an exchange went to the interface's origin, under its base path. */
  #underBase(exchange: CapturedExchange): boolean {
    try {
      const url = new URL(exchange.request.url);
      return url.origin === this.#origin && url.pathname.startsWith(`${this.#basePath}/`);
    } catch {
      return false;
    }
  }

  /**
   * A refusal the request's variation explains (415 to a form post, 413 to a body past the
   * largest, 417 to an expectation), observed as the active run observes policies and
   * limits: on the check that judged the request, no-server-error for a request outside the
   * interface (the only rule it meets), answers-allowed-status for a transport feature.
   */
  #observePolicy(variation: RequestVariation | undefined, exchange: CapturedExchange): void {
    const policy = variation && outsidePolicy(variation, exchange);
    if (!policy) return;
    const tally = this.#tally(variation.kind === 'outside' ? 'no-server-error' : 'answers-allowed-status');
    (tally.observations ??= new Set()).add(policy);
  }

  /**
   * The invariants of sections 4 and 7 and RFC 9110's 401 challenge: the active run's, on
   * each exchange. Without its body, an exchange is judged by those that read the status
   * and the headers alone.
   */
  #judgeInvariants(exchange: CapturedExchange, judge: Judge): void {
    const response = exchange.response!;
    const problems = lostResponseBody(exchange) ? headerProblems(exchange) : invariantRecord(exchange).problems;
    for (const [id, problem] of problems) {
      if (problem === null) continue;
      judge(id, () => {
        if (problem !== undefined) throw new CheckFailure(`${requestLine(exchange)} answered ${response.status}: ${problem}`, exchange, { expected: (INVARIANTS[id] as Invariant).rule, found: problem });
      });
    }
  }

  /** A list: its shape (4.1, 2) and, across the capture, the categories created and refused before it (4.1/R1, 4.2). */
  #judgeList(list: CapturedExchange, judge: Judge): void {
    const status = list.response!.status;
    const complete = list.missing.length === 0;
    // An authorized list answers 200 with an array: with the key known, whatever came back; else what a 200 holds.
    if (list.credential === 'valid' || status === 200) judge('list-answers-200-array', () => (complete || status !== 200) && void listAnswers200Array(list));
    if (status !== 200 || !complete) return;
    if (list.credential === 'valid') this.#keyedList = keyedListOf(list);
    judge('list-items-are-categories', () => void listItemsAreCategories(list));
    judge('list-ids-unique', () => void listIdsUnique(list));
    let listed: ListedItems;
    try {
      listed = new ListedItems(list);
    } catch {
      return; // not an array: list-answers-200-array said so
    }
    // Only what ended before this list started: overlapping requests are never ordered.
    const before: SentCategory[] = [];
    for (const { id, fields, endMs, seq, exact } of this.#created.values()) {
      if (exact && endMs < list.startMs) before.push({ checkId: `the create of exchange #${seq}`, fields, created: { id, ...fields } });
    }
    if (before.length > 0) judge('create-listed', () => void createdListed(list, before, listed));
    const refusals = this.#refusals.filter((refusal) => refusal.endMs < list.startMs);
    if (refusals.length > 0) judge('model-based-sequences', () => refusedAbsent(list, listed, refusals, this.#created));
    this.#remember(listed, list);
  }

  /** What a complete list showed: its ids (with when first seen) and the ids under each pair of fields. */
  #remember(listed: ListedItems, list: CapturedExchange): void {
    this.#firstListEndMs = Math.min(this.#firstListEndMs, list.endMs);
    // The same list as the last one remembered (most lists of a day's traffic) holds no id
    // or pair of fields not remembered already, and an id's first sighting was earlier.
    const body = list.response!.body;
    if (body === this.#lastRemembered) return;
    this.#lastRemembered = body;
    for (const { id, value } of listed.items()) {
      if (id === undefined) continue;
      const key = id.toString();
      if (!this.#listedIds.has(key)) this.#listedIds.set(key, list.endMs);
      const fieldsKey = fieldsKeyOf(value);
      if (fieldsKey === undefined) continue;
      // One id under a pair of fields, as in most catalogues, is kept as itself: a set each would cost 60,000 sets per list.
      const ids = this.#listedByFields.get(fieldsKey);
      if (ids === undefined) this.#listedByFields.set(fieldsKey, key);
      else if (typeof ids === 'string') {
        if (ids !== key) this.#listedByFields.set(fieldsKey, new Set([ids, key]));
      } else ids.add(key);
    }
  }

  /** A create: the body's validity decides the rule (4.2, 4.2/R1, 4.2/R2, 2); a 201 joins the capture's state. */
  #judgeCreate(create: CapturedExchange, judge: Judge): void {
    const credential = create.credential;
    // An invalid key is judged by the 401 rules alone ("regardless of the body"); a body the capture did not keep, not at all.
    if (create.missing.some((what) => what.startsWith('request body'))) return;
    if (isInvalidCredential(credential)) {
      // Refused without a key, a valid body is still one no later list may show (4.2/R3: nothing created).
      const refused = bodyKind(create.request.body);
      if (refused.kind === 'valid' && create.response!.status === 401) this.#refused(create, refused.fields);
      return;
    }
    const status = create.response!.status;
    // A response body the capture lost is never judged: only the status is (HTTPolice's stance on erratic exporters).
    const bodyLost = lostResponseBody(create);
    // A chunked body to a server that answers in HTTP/1.0 was sent against RFC 9112 §7.1: no rule of it is judged.
    const chunkedAsked = chunkedNotAsked(create.response!.httpVersion) === undefined;
    if (chunkedAsked) {
      judge('chunked-body-answered', () => {
        const { policy } = chunkedBodyAnswered(create);
        if (policy) (this.#tally('chunked-body-answered').observations ??= new Set()).add(policy);
      });
    }
    // A 5xx fails these rules as it fails the active checks (and no-server-error besides).
    // The key under another spelling of the scheme is the should check's (auth-scheme-case-insensitive): no must rule rests on it.
    const verified = credential === 'valid';
    const body = bodyKind(create.request.body);
    if (body.kind !== 'valid') {
      const expected = verified ? 'status 400' : 'status 400 (or 401 to a key the capture cannot verify)';
      const refused = status === 400 || (!verified && status === 401);
      const refusedAs = () => expectThat(refused, `Expected ${expected} to a body ${body.words}, received ${status}`, create, { expected, found: `status ${status}` });
      judge(body.kind, refusedAs);
      // The property's own rule: the refusal carries an Error body whose status is the HTTP status.
      judge('create-rejects-invalid-bodies', () => {
        refusedAs();
        if (!bodyLost) expectErrorStatus(create, status);
      });
      return;
    }
    const { fields, clientId, extra } = body;
    // A body past the parsers' limits (RFC 8259 §9): its own should rule; the must rules' premise leaves it out.
    if (variationOf(create.request)?.id === 'beyond-parser-limits') {
      judge('create-bodies-beyond-parser-limits', () => void deepBodyAnswered(create, fields, 'a body past every mainstream parser’s default limits', PARSER_LIMITS_WORDS));
    }
    const judgeCreated = () => {
      const shape = fields.description === undefined ? 'create-name-only' : 'create-with-description';
      const unicode = /[^\x00-\x7f]/.test(fields.name + (fields.description ?? '')) ? ['create-unicode'] : [];
      const exactly = bodyLost ? () => void expectStatus(create, 201) : () => void createdExactly(create, fields);
      for (const id of ['create-valid-bodies', shape, ...unicode]) judge(id, exactly);
      if (chunkedAsked && !bodyLost) judge('chunked-body-created-exactly', () => void chunkedCreatedExactly(create, fields, `exchange #${create.seq}`));
    };
    if (status !== 201) {
      // Refused: a key the capture cannot verify, or a policy the spec leaves open (section 8), is no finding; an everyday body is.
      // Unknown properties (a client's id among them) may be refused (section 2 neither allows nor forbids them: edge-unknown-properties).
      // Refused as the active checks allow (400, or 413 for size: check/refusal.ts); any other status is no refusal.
      const explained = (status === 401 && !verified) || (isRefusal(create) && (status === 413 || extra || mayBeRefused(fields)));
      if (!explained) judgeCreated();
      this.#refused(create, fields);
      return;
    }
    judgeCreated();
    if (bodyLost) return; // no id to hold to anything
    let created;
    try {
      created = expectCreated(create);
    } catch {
      return; // create-valid-bodies said why
    }
    if (clientId !== undefined) judge('create-ignores-client-id', () => void clientIdNotAdopted(create, clientId));
    const key = created.id.toString();
    judge('create-ids-unique', () => {
      const holders: CreatedCategory[] = [{ id: key, name: created.name, checkId: `exchange #${create.seq}` }];
      const earlier = this.#created.get(key);
      if (earlier) holders.push({ id: key, name: earlier.fields.name, checkId: `exchange #${earlier.seq}` });
      const listedEnd = this.#listedIds.get(key);
      if (!earlier && listedEnd !== undefined && listedEnd < create.startMs) holders.push({ id: key, name: '', checkId: 'a list that ended before it started' });
      idsFresh([{ exchange: create, id: created.id }], holders);
    });
    // Only a category created exactly is looked for in later lists, as the active checks look only for those: an altered one is create-valid-bodies' finding.
    let exact = true;
    try {
      createdExactly(create, fields);
    } catch {
      exact = false;
    }
    this.#created.set(key, { id: created.id, fields, endMs: create.endMs, seq: create.seq, exact });
  }

  /** A refused create of a valid body: no later list may show it (4.2, 4.2/R3), once a list before it showed the state. */
  #refused(create: CapturedExchange, fields: SentFields): void {
    if (create.startMs <= this.#firstListEndMs) return; // no list ended before it: what it would add is unknown
    const fieldsKey = fieldsKeyOf(fields)!;
    this.#refusals.push({ fields, endMs: create.endMs, seq: create.seq, listedBefore: idSet(this.#listedByFields.get(fieldsKey)) });
    if (this.#refusals.length > MAX_TRACKED_REFUSALS) {
      this.#refusals.shift();
      this.#refusalsLetGo++;
    }
  }

  /**
   * Records one judgement of a check on an exchange, when the exchange meets the check's
   * premise (check/premises.ts), as the active run meets it; returns its finding when it failed.
   */
  #apply(checkId: string, exchange: CapturedExchange, judgement: Judging): TrafficFinding | undefined {
    const definition = this.#definitions.get(checkId);
    // A rule judged under an id no check has would vanish from every report: a defect of the tool, said at once.
    if (!definition) throw new Error(`the traffic judge judged the unknown check ${checkId}: every judged rule reports under a check of runner/list.ts`);
    if (!premiseOf(checkId).holds(exchange.request, exchange.response?.status)) return undefined;
    const tally = this.#tally(checkId);
    try {
      if (judgement() === false) return undefined;
      tally.judged++;
      this.onJudgement({ checkId, seq: exchange.seq, failed: false });
      return undefined;
    } catch (error) {
      // A judgement that errs on what it cannot read (an answer too large) does not judge the exchange.
      if (!hasCode(error, 'PCS_CHECK_FAILURE')) return undefined;
      tally.judged++;
      tally.failures++;
      tally.first ??= error;
      this.onJudgement({ checkId, seq: exchange.seq, failed: true });
      return { checkId, level: definition.level, seq: exchange.seq, exchange: `${requestLine(exchange)} → ${exchange.response?.status ?? 'no response'}`, message: error.message };
    }
  }

  /** The tally of a check, started on first use. */
  #tally(checkId: string): Tally {
    const tally = this.#tallies.get(checkId) ?? { judged: 0, failures: 0 };
    this.#tallies.set(checkId, tally);
    return tally;
  }

  /** Counts an entry that holds no exchange to judge (no method, URL or start time): left alone. */
  skipUnreadable(): void {
    this.counts.entries++;
    this.counts.other++;
  }

  /**
   * Counts an entry without the shape the judge reads (schemas/har-entry.schema.json),
   * naming the first {@link MAX_DROPPED_LISTED}: the rest of the capture is judged.
   * @param entry the entry's index in its file's log.entries (0-based).
   */
  skipInvalid(file: string, entry: number, reason: string): void {
    this.counts.entries++;
    const invalid = (this.counts.invalid ??= { entries: 0, listed: [] });
    invalid.entries++;
    if (invalid.listed.length < MAX_DROPPED_LISTED) invalid.listed.push({ file, entry, reason });
  }

  /** Where the entries left alone went, most first (at most {@link MAX_ORIGINS_NOTED} origins): what a wrong --base-url is told. */
  otherOrigins(): string[] {
    return [...this.#otherOrigins].sort((a, b) => b[1] - a[1]).map(([origin, n]) => `${origin} (${n})`);
  }

  #noteOrigin(url: string): void {
    let origin: string;
    try {
      const parsed = new URL(url);
      // The origin and the path up to a version segment: what a wrong --base-url differs in.
      origin = `${parsed.origin}${/^(.*?\/v\d+)(?:\/|$)/.exec(parsed.pathname)?.[1] ?? ''}`;
    } catch {
      return;
    }
    if (this.#otherOrigins.has(origin) || this.#otherOrigins.size < MAX_ORIGINS_NOTED) this.#otherOrigins.set(origin, (this.#otherOrigins.get(origin) ?? 0) + 1);
  }

  /** Notices about what the judge could not keep (refusals let go) for the report. */
  notices(): string[] {
    return this.#refusalsLetGo > 0 ? [`${this.#refusalsLetGo} refused creates were let go after ${MAX_TRACKED_REFUSALS} (the oldest first): later lists were not judged against them`] : [];
  }

  /** Every check's outcome over the capture so far: failed, passed, or skipped as never exercised. */
  results(): CheckResult[] {
    return [...this.#definitions.values()].map((definition) => {
      const tally = this.#tallies.get(definition.id);
      const base: CheckResult = {
        id: definition.id,
        title: definition.title,
        clause: definition.clause,
        level: definition.level,
        ...(definition.reference ? { reference: definition.reference } : {}),
        requirements: definition.requirements,
        ...(definition.needs ? { needs: definition.needs } : {}),
        status: 'skipped',
        durationMs: 0,
        requests: 0,
      };
      if (!tally || tally.judged === 0) return { ...base, reason: NOT_IN_TRAFFIC };
      const traffic = { exchanges: tally.judged, failures: tally.failures, alone: true };
      const observations = tally.observations ? { observations: [...tally.observations] } : {};
      if (!tally.first) return { ...base, status: 'passed', ...observations, traffic };
      const failure = failureRecord(tally.first, definition.id);
      failure.message = `${tally.failures} of ${tally.judged} captured exchanges broke the rule; first, exchange #${tally.first.exchange.seq}: ${failure.message}`;
      return { ...base, status: 'failed', ...observations, traffic, failure };
    });
  }
}
