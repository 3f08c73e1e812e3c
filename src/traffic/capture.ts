/**
 * A HAR entry as an exchange the judgements read (core/exchange.ts), with what the
 * capture left out said, never guessed: a body stored as base64 is decoded, a compressed
 * one (base64 of gzip, deflate or br bytes under a Content-Encoding) inflated, a JSON or
 * form body a writer kept only as `params` rebuilt, and a body left out or cut short is
 * absent, named in `missing` with why. Exporters are erratic (HTTPolice's words), so the
 * reader trusts what it can check: text that parses as JSON is the body whatever `size`
 * says, and `size` is compared only where no Content-Encoding applies.
 */
import { brotliDecompressSync, gunzipSync, inflateSync } from 'node:zlib';
import type { Exchange, RecordedRequest, RecordedResponse } from '../core/exchange.js';
import { parseJson } from '../json/lossless.js';
import { CUT, isCut } from './bounded-tokens.js';
import type { HarEntry, HarPair } from './har-reader.js';

/** An exchange of a capture, placed in time. */
export interface CapturedExchange extends Exchange {
  /** When the request started and when the response ended, in ms since the epoch. */
  startMs: number;
  endMs: number;
  /** What the capture did not hold: `request body`, `response body`, each with why. Judgements that need one skip the exchange. */
  missing: string[];
  /** What the reader read in place of what the writer wrote amiss (`a header without a value, read as empty`): judged, and counted. */
  repaired: string[];
}

/** How a header field a writer left without a value is read, and counted. */
export const HEADER_WITHOUT_VALUE = 'a header field without a value, read as empty';

/** What a capture's entry with a field listed twice with one value is read as (counted once per entry). */
export const FIELD_LISTED_TWICE = 'a header field listed twice with the same value, read once (Chrome’s DevTools protocol reports request fields twice)';

/** Largest body inflated from a compressed capture, in bytes (a zip bomb is a missing body, not a crash). */
const MAX_INFLATED_BYTES = 64 * 1024 * 1024;

/**
 * The exchange a HAR entry records, or undefined when it is not an HTTP exchange a
 * judgement can place (no method or URL, no start time).
 * @param seq its 1-based place in the capture (the report's exchange number).
 * @param credentialOf names the credential of the request's Authorization field (see credentials.ts).
 */
export function capturedExchange(entry: HarEntry, seq: number, credentialOf: (authorization: string | undefined) => string): CapturedExchange | undefined {
  const startMs = Date.parse(entry?.startedDateTime);
  if (!entry?.request?.method || !entry.request.url || !Number.isFinite(startMs)) return undefined;
  const missing: string[] = [];
  const repaired: string[] = [];
  for (const pairs of [entry.request.headers, entry.response?.headers]) for (const pair of pairs ?? []) if (pair?.value === undefined) repaired.push(HEADER_WITHOUT_VALUE);
  let listedTwice = false;
  const once = () => void (listedTwice = true);
  const requestHeaders = headerFields(entry.request.headers, once);
  // Insomnia and some exporters keep the body's media type in postData alone.
  const mimeType = entry.request.postData?.mimeType;
  if (requestHeaders['content-type'] === undefined && typeof mimeType === 'string' && mimeType !== '') requestHeaders['content-type'] = mimeType;
  const requestBody = body(withText(entry.request.postData, bodyLengths(requestHeaders, entry.request.bodySize), 'request body', missing), entry.request.bodySize, requestHeaders, 'request body', missing);
  // A body the capture did not keep still has its size, when the writer knew it: what sets an oversized body apart (check/premises.ts).
  const size = entry.request.bodySize;
  const request: RecordedRequest = {
    method: entry.request.method.toUpperCase(),
    url: entry.request.url,
    headers: requestHeaders,
    ...(requestBody !== undefined ? { body: requestBody.text } : typeof size === 'number' && size > 0 ? { bodyBytes: size } : {}),
  };
  const duration = Number.isFinite(entry.time) && entry.time >= 0 ? entry.time : 0;
  const exchange: CapturedExchange = {
    seq,
    checkId: 'traffic',
    credential: credentialOf(requestHeaders.authorization),
    request,
    startedAt: new Date(startMs).toISOString(),
    durationMs: duration,
    connection: 'fresh',
    startMs,
    endMs: startMs + duration,
    missing,
    repaired,
  };
  const status = entry.response?.status;
  if (!status) {
    exchange.error = { code: 'OTHER', message: `no response in the capture${entry.comment ? ` (${entry.comment})` : ''}` };
    return exchange;
  }
  const headers = headerFields(entry.response.headers, once);
  if (listedTwice) repaired.push(FIELD_LISTED_TWICE);
  const decoded = body(entry.response.content, entry.response.content?.size, headers, 'response body', missing);
  const version = normalVersion(entry.response.httpVersion);
  const response: RecordedResponse = {
    status,
    ...(version ? { httpVersion: version } : {}),
    headers,
    body: decoded?.text ?? '',
    bodyBytes: decoded?.bytes ?? Math.max(0, entry.response.content?.size ?? 0),
    utf8Valid: decoded?.utf8Valid ?? true,
  };
  exchange.response = response;
  // This tool's own captures name the attempts it sent again: they are not answers.
  const superseded = /(?:^|; )superseded: ([^;]*)/.exec(entry.comment ?? '');
  if (superseded) exchange.superseded = superseded[1]!;
  return exchange;
}

/** `HTTP/1.0` for an answer in HTTP/1.0, however a writer spells it; undefined for HTTP/1.1 and later, the default (RFC 9112 §2.3). */
export function normalVersion(version: string | undefined): string | undefined {
  return /^http\/1\.0$/i.test(version?.trim() ?? '') ? 'HTTP/1.0' : undefined;
}

/**
 * Header fields by lower-case name, repeated fields joined with ", " (RFC 9110 §5.3), as the
 * client records them; HTTP/2 pseudo-headers are none.
 * @param listedTwice for a capture: a field listed again with a value it already has is the
 *   recorder's (Chrome's DevTools protocol reports a request's fields twice, and chrome-har
 *   writes both), read once, and this is called. Without it (the proxy, which reads the
 *   wire), every field is taken as sent.
 */
export function headerFields(pairs: readonly HarPair[] | undefined, listedTwice?: () => void): Record<string, string> {
  const headers: Record<string, string> = {};
  /** The values of each field listed more than once so far (most fields are listed once, and need none). */
  let repeated: Map<string, Set<string>> | undefined;
  for (const { name, value } of pairs ?? []) {
    // HTTP/2 captures carry pseudo-headers (`:authority`): not fields.
    if (typeof name !== 'string' || name.startsWith(':')) continue;
    const key = name.toLowerCase();
    const text = String(value ?? '');
    const earlier = headers[key];
    if (earlier === undefined) {
      headers[key] = text;
      continue;
    }
    if (listedTwice) {
      // Listed once before, the field holds that one value.
      const values = repeated?.get(key) ?? new Set([earlier]);
      if (values.has(text)) {
        listedTwice();
        continue;
      }
      (repeated ??= new Map()).set(key, values.add(text));
    }
    headers[key] = `${earlier}, ${text}`;
  }
  return headers;
}

/**
 * The length a message's body had on the wire, as its Content-Length says (RFC 9110
 * §8.6), or as the writer's `bodySize` says when it holds none; undefined when neither
 * says (or a Content-Encoding makes the bytes on the wire another text's).
 */
function declaredLength(headers: Record<string, string>, bodySize: number | undefined): number | undefined {
  if (isCoded(headers['content-encoding'])) return undefined;
  const length = /^\s*\d+\s*$/.test(headers['content-length'] ?? '') ? Number(headers['content-length']) : undefined;
  return length ?? (typeof bodySize === 'number' && bodySize > 0 ? bodySize : undefined);
}

/** Whether a Content-Encoding other than identity applies. */
function isCoded(contentEncoding: string | undefined): boolean {
  return contentEncoding !== undefined && !/^\s*identity\s*$/i.test(contentEncoding);
}

/**
 * The lengths a rebuilt body must have: its Content-Length, in bytes (RFC 9110 §8.6);
 * without one, the writer's `bodySize`, which chrome-har counts in UTF-16 units (the
 * length of the string it was given) where others count bytes: either is accepted.
 */
export function bodyLengths(headers: Record<string, string>, bodySize: number | undefined): { bytes?: number; units?: number } {
  const length = declaredLength(headers, undefined);
  if (length !== undefined) return { bytes: length };
  return typeof bodySize === 'number' && bodySize > 0 ? { bytes: bodySize, units: bodySize } : {};
}

/**
 * `postData` with its text: as written, or rebuilt from `params` when the writer kept only
 * those (chrome-har writes a JSON body as its top-level members, a form body as its
 * fields). A JSON body is rebuilt only when its members say what it was: an object whose
 * names are unique and not the indexes of an array, written with every value as a
 * string, whose text has exactly the body's length (`length`, {@link bodyLengths}): a
 * member that was a number, or a body written with other spacing or escapes, is then
 * missing, said why, never guessed.
 */
export function withText(postData: HarEntry['request']['postData'], length: { bytes?: number; units?: number }, what: string, missing: string[]): HarEntry['request']['postData'] {
  if (!postData || typeof postData.text === 'string' || !Array.isArray(postData.params) || postData.params.length === 0) return postData;
  const params = postData.params as Array<{ name?: unknown; value?: unknown }>;
  if (params.some(({ name, value }) => isCut(name) || isCut(value))) {
    missing.push(`${what} (${notKept(params.map(({ name, value }) => (isCut(value) ? value[CUT] : isCut(name) ? name[CUT] : 0)).reduce((a, b) => a + b))})`);
    return { ...postData, text: undefined };
  }
  const names = params.map(({ name }) => String(name));
  const type = (postData.mimeType ?? '').split(';', 1)[0]!.trim().toLowerCase();
  if (type === 'application/x-www-form-urlencoded') return { ...postData, text: new URLSearchParams(params.map(({ name, value }): [string, string] => [String(name), String(value ?? '')])).toString() };
  const indexes = names.every((name, i) => name === String(i));
  if (type !== 'application/json' || new Set(names).size !== names.length || indexes) {
    missing.push(`${what} (given as params only, which do not say what the body was)`);
    return { ...postData, text: undefined };
  }
  const text = JSON.stringify(Object.fromEntries(params.map(({ name, value }) => [String(name), String(value ?? '')])));
  if (Buffer.byteLength(text) === length.bytes || text.length === length.units) return { ...postData, text };
  const measured = length.bytes === undefined ? 'no length to check their text against' : `their text, ${Buffer.byteLength(text)} bytes, is not the body's ${length.bytes}`;
  missing.push(`${what} (given as params only, and ${measured})`);
  return { ...postData, text: undefined };
}

/**
 * A body as HAR keeps it (`postData` or `content`), decoded; undefined, with the reason in
 * `missing`, when the capture left it out or cut it short. `size` is the decoded length in
 * bytes when the writer knew it, but writers differ: mitmproxy's har_dump writes the
 * compressed length, chrome-har twice the length. So text that parses as JSON is the body
 * whatever `size` says, and `size` is compared only where no Content-Encoding applies.
 */
function body(
  content: { text?: string; encoding?: string; size?: number } | undefined,
  size: number | undefined,
  headers: Record<string, string>,
  what: string,
  missing: string[],
): { text: string; bytes: number; utf8Valid: boolean } | undefined {
  const contentEncoding = headers['content-encoding'];
  if (missing.some((reason) => reason.startsWith(what))) return undefined;
  if (isCut(content?.text)) {
    missing.push(`${what} (${notKept(content.text[CUT])})`);
    return undefined;
  }
  if (content?.text === undefined || content.text === null) {
    // Without its text a body is known only to be empty (size 0); any other size, -1 (unknown) included, means it was not kept.
    const known = size ?? content?.size;
    // A request without postData had no body; a response always has a `content` (HAR 1.2), so one without it kept nothing.
    if (known === 0 || (what === 'request body' && content === undefined && (known === undefined || known < 0))) return undefined;
    missing.push(`${what} (not kept in the capture)`);
    return undefined;
  }
  // Base64 holds bytes (binary, or still compressed); plain text was decoded by the writer.
  const decoded = content.encoding === 'base64' ? bodyText(Buffer.from(content.text, 'base64'), contentEncoding, what, missing) : { text: content.text, bytes: Buffer.byteLength(content.text), utf8Valid: true };
  if (!decoded) return undefined;
  // A writer that cut the text keeps its full size, or the Content-Length tells it (axios-har-tracker writes a JSON
  // null as ""): judging the cut text would judge what the server never sent. A size may be of the compressed bytes
  // (a Content-Encoding applies), or wrong: text that parses whole is no cut.
  const length = Math.max(typeof size === 'number' ? size : 0, declaredLength(headers, undefined) ?? 0);
  if (length > 0 && decoded.bytes < length && !isCoded(contentEncoding) && !parseJson(decoded.text).ok) {
    missing.push(`${what} (cut short: ${decoded.bytes} of ${length} bytes kept)`);
    return undefined;
  }
  return decoded;
}

/** Why a body the reader did not keep is missing: its length, past the bound it was read with (har-reader.ts). */
function notKept(chars: number): string {
  return `not kept: ${chars} characters, larger than --max-response-bytes`;
}

/**
 * Body bytes as the judgements read them: inflated when their Content-Encoding says they
 * are compressed, then decoded as UTF-8 (`utf8Valid` false when they are not UTF-8);
 * undefined, said in `missing`, when they claim a compression and do not inflate.
 */
export function bodyText(bytes: Buffer, contentEncoding: string | undefined, what: string, missing: string[]): { text: string; bytes: number; utf8Valid: boolean } | undefined {
  const inflated = inflate(bytes, contentEncoding);
  if (inflated === null) {
    missing.push(`${what} (compressed with ${contentEncoding}, and it does not inflate)`);
    return undefined;
  }
  const text = inflated.toString('utf8');
  return { text, bytes: inflated.length, utf8Valid: Buffer.from(text, 'utf8').equals(inflated) };
}

/**
 * The bytes inflated when they are still compressed (a base64 body of a gzip, deflate or
 * br response, as some tools store it); the bytes as they are otherwise; null when they
 * claim a compression and do not inflate.
 */
function inflate(bytes: Buffer, contentEncoding: string | undefined): Buffer | null {
  const coding = contentEncoding?.trim().toLowerCase();
  const options = { maxOutputLength: MAX_INFLATED_BYTES };
  try {
    if ((coding === 'gzip' || coding === 'x-gzip') && bytes[0] === 0x1f && bytes[1] === 0x8b) return gunzipSync(bytes, options);
    if (coding === 'deflate' && bytes[0] === 0x78) return inflateSync(bytes, options);
    if (coding === 'br') {
      // Brotli has no magic number: stored bytes that are already JSON text stay as they are.
      const first = bytes.toString('utf8', 0, 1);
      return first === '{' || first === '[' ? bytes : brotliDecompressSync(bytes, options);
    }
  } catch {
    return null;
  }
  return bytes;
}
