/**
 * The grammar of changes an attacker makes to a request that lacks the key (issue 57): a
 * credential that is not the key (invalid-credential.ts), composed with a change of method
 * and a change of context. Generated and shrunk by fast-check to the fewest changes that
 * still get through, and covered in every run by each change alone.
 *
 * Sources beyond the classes, each named where it is used:
 * - OWASP Web Security Testing Guide, WSTG-ATHN-04 "Testing for Bypassing Authentication
 *   Schema": direct requests, parameter modification (`authenticated=yes`), SQL injection.
 * - HackTricks, "403 & 401 Bypasses", and the bypass tools it lists (byp4xx, 4-ZERO-3,
 *   nomore403): forwarding and client-IP headers with local addresses, path-override
 *   headers (`X-Original-URL`, `X-Rewrite-URL`), other methods and method overrides.
 * - PortSwigger Web Security Academy, "Method-based access control can be circumvented" and
 *   "URL-based access control can be circumvented" (X-Original-URL).
 */
import fc from 'fast-check';
import type { PathSpelling } from '../http/path-spellings.js';
import { PATH_SPELLINGS } from '../http/path-spellings.js';
import type { PlacedParts } from '../http/key-placement.js';
import { bodyText, type RequestBody } from '../http/request.js';
import { NO_CREDENTIAL } from '../http/credential.js';
import { METHOD_OVERRIDE_HEADERS, METHOD_OVERRIDE_PARAMETER } from '../http/method-override.js';
import { covers, type CoverageInput } from './coverage.js';
import { credentialCoverage, credentialWords, invalidCredential, type InvalidCredential } from './invalid-credential.js';

/** What a generated request asks for before its changes: a list, or a create with a body or none. */
export type Operation = { operation: 'list' } | { operation: 'create'; body?: RequestBody };

type OverrideVia = (typeof METHOD_OVERRIDE_HEADERS)[number] | typeof METHOD_OVERRIDE_PARAMETER;
/** Every way of overriding a method, the headers first. */
const OVERRIDE_VIAS: readonly OverrideVia[] = [...METHOD_OVERRIDE_HEADERS, METHOD_OVERRIDE_PARAMETER];

/**
 * A change of method: another method on the wire (HEAD, which is GET without content, RFC
 * 9110 §9.3.2; OPTIONS), an override naming the other operation's method, or both.
 */
export interface MethodChange {
  verb?: 'HEAD' | 'OPTIONS';
  override?: { via: OverrideVia; to: 'GET' | 'POST' };
}

/** Addresses a client claims to come from: loopback and private (RFC 1918, RFC 4193), as gateways write them for internal traffic. */
const INTERNAL_ADDRESSES = ['127.0.0.1', '10.0.0.1', '192.168.1.1', '172.16.0.1', '::1', 'localhost'] as const;

/** Headers a gateway sets for the client's address, which a server may trust to skip the key (HackTricks' 403 bypass list; RFC 7239 for Forwarded). */
export const CLIENT_ADDRESS_HEADERS = [
  'X-Forwarded-For',
  'X-Real-IP',
  'Forwarded',
  'True-Client-IP',
  'Client-IP',
  'X-Client-IP',
  'X-Originating-IP',
  'X-Remote-IP',
  'X-Remote-Addr',
  'X-Custom-IP-Authorization',
  'X-ProxyUser-Ip',
  'Cluster-Client-IP',
  'X-Forwarded',
  'Forwarded-For',
  'X-Forwarded-Host',
  'X-Host',
] as const;

/** Headers that override the path a server routes (IIS, Symfony, Zend): sent on the origin's root, naming the operation's path. */
export const PATH_OVERRIDE_HEADERS = ['X-Original-URL', 'X-Rewrite-URL'] as const;

/** Parameters that claim a session is authenticated (WSTG-ATHN-04, "parameter modification"). */
const CLAIM_PARAMETERS = [
  ['authenticated', 'yes'],
  ['admin', '1'],
  ['debug', '1'],
] as const;

/** A change of context: a header that claims the client is internal, a path override, a claiming parameter, or another spelling of the path (issue 44). */
export type ContextChange =
  | { kind: 'address'; header: (typeof CLIENT_ADDRESS_HEADERS)[number]; address: (typeof INTERNAL_ADDRESSES)[number] }
  | { kind: 'path-override'; header: (typeof PATH_OVERRIDE_HEADERS)[number] }
  | { kind: 'claim'; name: string; value: string }
  | { kind: 'spelling'; spelling: PathSpelling };

/** One request of the grammar: a credential that is not the key, an operation, and at most one change of method and one of context. */
export interface Bypass {
  credential: InvalidCredential;
  operation: Operation;
  method?: MethodChange;
  context?: ContextChange;
}

/** The request a {@link Bypass} sends: method, path (from the origin when `fromOrigin`), credential with its placed parts, and body. */
export interface BypassRequest {
  method: string;
  path: string;
  fromOrigin: boolean;
  credential: InvalidCredential;
  body?: RequestBody;
  /** Whether it is a request the interface defines (GET or POST on the operation's path), held to 401 with an Error body; else to revealing nothing. */
  defined: boolean;
  /** Whether it is on the list's path, as written or spelled otherwise (not the root of a path override): where HEAD is the list. */
  onListPath: boolean;
}

/** A header field's value as a client writes it: `Forwarded` takes `for=` (RFC 7239 §4, an IPv6 address quoted and bracketed). */
function addressValue(header: string, address: string): string {
  if (header !== 'Forwarded') return address;
  return address.includes(':') ? `for="[${address}]"` : `for=${address}`;
}

/**
 * The request a bypass sends. The override and the context ride on the credential's placed
 * parts, as every header and parameter beyond the suite's own does (http/key-placement.ts).
 * @param basePath the base URL's path (`/v1`), for what is sent from the origin.
 */
export function bypassRequest(bypass: Bypass, basePath: string): BypassRequest {
  const { credential, operation, method: change, context } = bypass;
  const method = change?.verb ?? (operation.operation === 'list' ? 'GET' : 'POST');
  const headers: PlacedParts['headers'] = { ...credential.placed?.headers };
  const query: string[] = [];
  const header = (name: string, value: string) => (headers[name.toLowerCase()] = { sent: value, shown: value });
  if (change?.override) {
    if (change.override.via === METHOD_OVERRIDE_PARAMETER) query.push(`${METHOD_OVERRIDE_PARAMETER}=${change.override.to}`);
    else header(change.override.via, change.override.to);
  }
  let path = '/categories';
  let fromOrigin = false;
  if (context?.kind === 'address') header(context.header, addressValue(context.header, context.address));
  if (context?.kind === 'claim') query.push(`${context.name}=${context.value}`);
  if (context?.kind === 'path-override') {
    header(context.header, `${basePath}/categories`);
    [path, fromOrigin] = ['/', true];
  }
  if (context?.kind === 'spelling') [path, fromOrigin] = [context.spelling.spell(basePath), true];
  const placed: PlacedParts = { headers, ...(query.length > 0 ? { query: { sent: query.join('&'), shown: query.join('&') } } : {}) };
  const body = method === 'POST' && operation.operation === 'create' ? operation.body : undefined;
  const onPath = context?.kind !== 'path-override' && context?.kind !== 'spelling';
  return {
    method,
    path,
    fromOrigin,
    credential: { ...credential, placed },
    ...(body ? { body } : {}),
    defined: onPath && (method === 'GET' || method === 'POST'),
    onListPath: context?.kind !== 'path-override',
  };
}

/** A bypass's changes in words: "`OPTIONS` + `X-HTTP-Method-Override: GET` without a key", "the valid key followed by … (Bearer KEY x)". */
export function bypassWords(bypass: Bypass): string {
  const { credential, method, context } = bypass;
  const parts: string[] = [];
  if (method?.verb) parts.push(`\`${method.verb}\``);
  if (method?.override) parts.push(method.override.via === METHOD_OVERRIDE_PARAMETER ? `\`?${METHOD_OVERRIDE_PARAMETER}=${method.override.to}\`` : `\`${method.override.via}: ${method.override.to}\``);
  if (context?.kind === 'address') parts.push(`\`${context.header}: ${addressValue(context.header, context.address)}\``);
  if (context?.kind === 'claim') parts.push(`\`?${context.name}=${context.value}\``);
  if (context?.kind === 'path-override') parts.push(`\`${context.header}\` naming the list's path on \`/\``);
  if (context?.kind === 'spelling') parts.push(context.spelling.words);
  const changes = parts.join(' + ');
  if (!changes) return credentialWords(credential);
  return credential.name === 'missing' ? `${changes} without a key` : `${changes} with ${credentialWords(credential)}`;
}

/** A bypass printing as its words in counterexamples. */
function printable(bypass: Bypass): Bypass {
  return Object.assign(bypass, { [fc.toStringMethod]: () => bypassWords(bypass) });
}

/**
 * Method changes a run may send: HEAD and OPTIONS with or without an override to GET in any
 * run; an override to POST (a write, on a server that honours it) and one on a POST only
 * in the full profile.
 */
function methodChange(readOnly: boolean): fc.Arbitrary<MethodChange> {
  const via = fc.constantFrom(...OVERRIDE_VIAS);
  const verb = fc.constantFrom<'HEAD' | 'OPTIONS'>('HEAD', 'OPTIONS');
  const toGet = via.map((name) => ({ via: name, to: 'GET' as const }));
  const changes: Array<fc.Arbitrary<MethodChange>> = [verb.map((v) => ({ verb: v })), fc.tuple(verb, toGet).map(([v, override]) => ({ verb: v, override }))];
  if (!readOnly) changes.push(fc.tuple(via, fc.constantFrom<'GET' | 'POST'>('GET', 'POST')).map(([name, to]) => ({ override: { via: name, to } })));
  return fc.oneof(...changes);
}

const contextChange: fc.Arbitrary<ContextChange> = fc.oneof(
  fc.tuple(fc.constantFrom(...CLIENT_ADDRESS_HEADERS), fc.constantFrom(...INTERNAL_ADDRESSES)).map(([header, address]) => ({ kind: 'address' as const, header, address })),
  fc.constantFrom(...PATH_OVERRIDE_HEADERS).map((header) => ({ kind: 'path-override' as const, header })),
  fc.constantFrom(...CLAIM_PARAMETERS).map(([name, value]) => ({ kind: 'claim' as const, name, value })),
  fc.constantFrom(...PATH_SPELLINGS).map((spelling) => ({ kind: 'spelling' as const, spelling })),
);

/**
 * Generated bypasses: a credential (shrinking toward no header), an operation (toward a
 * list), and each change optional (shrinking toward none): a failure shrinks to the fewest
 * changes that still get through.
 * @param operation the operations a run may send (a read-only run: lists alone).
 */
export function bypass(apiKey: string, operation: fc.Arbitrary<Operation>, readOnly: boolean): fc.Arbitrary<Bypass> {
  return fc
    .record({
      credential: invalidCredential(apiKey),
      operation,
      method: fc.option(methodChange(readOnly), { nil: undefined, freq: 3 }),
      context: fc.option(contextChange, { nil: undefined, freq: 3 }),
    })
    .map(({ method, context, ...rest }) => printable({ ...rest, ...(method ? { method } : {}), ...(context ? { context } : {}) }));
}

/**
 * The coverage phase: every change alone, whatever the seed, ordered by how many changes
 * each makes (the first that gets through is a smallest one). Each credential of
 * credentialCoverage on its operations; without a key, each method change (HEAD, OPTIONS,
 * OPTIONS with each override to GET; in the full profile, a POST overridden to GET and a
 * GET to POST) and each context change (each client-address header with a loopback and,
 * for the commonest three, a private address; each path override; each claiming parameter).
 * Path spellings are auth-path-spellings' coverage, generated here in combinations only.
 * @param create a create's operation with a valid body (tagged, so one stored is found).
 * @param large a create's operation with a valid body past the 64 KiB where fronts set
 *   body limits (128 KiB: at 1 MiB, Node answering before it has read the body races an
 *   nginx in front into a 502, a real stack's flake that no seed should decide).
 */
export function bypassCoverage(apiKey: string, readOnly: boolean, create: Operation, large: Operation = create): Array<CoverageInput<Bypass>> {
  const list: Operation = { operation: 'list' };
  const credentials = credentialCoverage(apiKey)
    .filter(({ value: { operations } }) => !readOnly || operations !== 'create')
    .flatMap(({ value: { credential, operations } }) => [
      ...(operations !== 'create' ? [{ credential, operation: list }] : []),
      ...(operations !== 'list' && !readOnly ? [{ credential, operation: create }] : []),
    ]);
  const missing = { ...NO_CREDENTIAL } as InvalidCredential;
  const methods: MethodChange[] = [
    { verb: 'HEAD' },
    { verb: 'OPTIONS' },
    ...OVERRIDE_VIAS.map((via) => ({ verb: 'OPTIONS' as const, override: { via, to: 'GET' as const } })),
    { verb: 'HEAD', override: { via: METHOD_OVERRIDE_HEADERS[0], to: 'GET' } },
  ];
  const contexts: ContextChange[] = [
    ...CLIENT_ADDRESS_HEADERS.map((header) => ({ kind: 'address' as const, header, address: '127.0.0.1' as const })),
    ...CLIENT_ADDRESS_HEADERS.slice(0, 3).map((header) => ({ kind: 'address' as const, header, address: '10.0.0.1' as const })),
    ...PATH_OVERRIDE_HEADERS.map((header) => ({ kind: 'path-override' as const, header })),
    ...CLAIM_PARAMETERS.map(([name, value]) => ({ kind: 'claim' as const, name, value })),
  ];
  const writes: Bypass[] = readOnly
    ? []
    : [
        // 401 wins whatever the body's size (4.2/R3): a front that checks the size first answers 413.
        { credential: missing, operation: large },
        { credential: missing, operation: create, method: { override: { via: METHOD_OVERRIDE_HEADERS[0], to: 'GET' } } },
        { credential: missing, operation: list, method: { override: { via: METHOD_OVERRIDE_HEADERS[0], to: 'POST' } } },
        { credential: missing, operation: list, method: { override: { via: METHOD_OVERRIDE_PARAMETER, to: 'POST' } } },
      ];
  const bypasses: Bypass[] = [
    ...credentials,
    ...contexts.map((context) => ({ credential: missing, operation: list, context })),
    ...methods.map((method) => ({ credential: missing, operation: list, method })),
    ...writes,
  ];
  const changes = (b: Bypass) => 1 + (b.method?.verb ? 1 : 0) + (b.method?.override ? 1 : 0) + (b.context ? 1 : 0);
  const operationWords = (operation: Operation) => {
    if (operation.operation === 'list') return 'listCategories';
    if (operation !== large || large === create) return 'createCategory with a valid body';
    return `createCategory with a valid body of ${Buffer.byteLength(bodyText(operation.body) ?? '')} bytes`;
  };
  return bypasses
    .map((b, i) => ({ b: printable(b), i }))
    .sort((x, y) => changes(x.b) - changes(y.b) || x.i - y.i)
    .map(({ b }) => covers(`${operationWords(b.operation)}, ${bypassWords(b)}`, b));
}

/** A request as recorded or captured: what {@link capturedBypassWords} reads. */
interface SeenRequest {
  method: string;
  url: string;
  headers: Readonly<Record<string, string>>;
}

/** Whether a request carries a path override (X-Original-URL, X-Rewrite-URL) naming `path`, with or without a query. */
export function overridesPathTo(headers: Readonly<Record<string, string>>, path: string): boolean {
  return PATH_OVERRIDE_HEADERS.some((name) => headers[name.toLowerCase()]?.split('?', 1)[0] === path);
}

/**
 * The changes a captured request without the key made, in the words of {@link bypassWords}:
 * "`HEAD` + `X-Forwarded-For: 10.0.0.1` without a key". The traffic judge names what it saw
 * as the active run names what it sent.
 * @param credential the credential's name as the capture's judge reads it (traffic/credentials.ts).
 */
export function capturedBypassWords(request: SeenRequest, credential: string): string {
  const method = request.method.toUpperCase();
  const parts: string[] = [];
  if (method !== 'GET' && method !== 'POST') parts.push(`\`${method}\``);
  for (const name of METHOD_OVERRIDE_HEADERS) {
    const value = request.headers[name.toLowerCase()];
    if (value !== undefined) parts.push(`\`${name}: ${value}\``);
  }
  let query = new URLSearchParams();
  try {
    query = new URL(request.url).searchParams;
  } catch {
    // A URL that does not parse has no parameters to name.
  }
  for (const name of [METHOD_OVERRIDE_PARAMETER, ...CLAIM_PARAMETERS.map(([claim]) => claim)]) {
    const value = query.get(name);
    if (value !== null) parts.push(`\`?${name}=${value}\``);
  }
  for (const name of [...CLIENT_ADDRESS_HEADERS, ...PATH_OVERRIDE_HEADERS]) {
    const value = request.headers[name.toLowerCase()];
    if (value !== undefined) parts.push(`\`${name}: ${value}\``);
  }
  const changes = parts.join(' + ');
  const key = credential === 'missing' ? 'without a key' : `with the credential the capture names ${credential}`;
  return changes ? `${changes} ${key}` : `the credential the capture names ${credential}`;
}
