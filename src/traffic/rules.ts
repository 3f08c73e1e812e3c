/**
 * The rules only captured traffic needs, beside the active judgements the judge reuses
 * (judge.ts): the table of answers each operation may give, what a create's body is, and
 * whether a refused create shows up in a later list.
 */
import { ListedItems, expectThat, type SentFields } from '../check/expect.js';
import type { RequestVariation } from '../http/request-variations.js';
import { exactInteger, parseJson } from '../json/lossless.js';
import { refusalOf } from '../http/retry-policy.js';
import type { CapturedExchange } from './capture.js';

/** A create the server refused, with the ids already listed under its fields before it started. */
export interface Refusal {
  fields: SentFields;
  endMs: number;
  seq: number;
  listedBefore: Set<string>;
}

/**
 * The policy a refusal shows when the request's variation has an honest refusal and got it
 * (415 to a form post, 413 to a body past the largest, 417 to an expectation), in the words
 * the report observes it; undefined otherwise. The chunked body's 411 is its own check's.
 */
export function outsidePolicy(variation: RequestVariation, exchange: CapturedExchange): string | undefined {
  const refusal = variation.honestRefusal;
  if (!refusal || variation.id === 'chunked-framing' || exchange.response?.status !== refusal.status) return undefined;
  const { headers } = exchange.request;
  const what: Record<string, string> = {
    'other-media-type': `bodies sent as ${(headers['content-type'] ?? 'no media type').split(';', 1)[0]!.trim()}`,
    'oversized-body': 'bodies larger than the largest the suite sends',
    'expect-continue': 'requests with Expect: 100-continue',
  };
  const why = variation.kind === 'transport' ? `a transport policy (${refusal.reference})` : `a request outside the interface, refused honestly (${refusal.reference})`;
  return `${what[variation.id] ?? variation.what} are refused (${refusal.status}): ${why}`;
}

/**
 * cors-preflight-answered (info): a CORS preflight is answered with an ok status (2xx),
 * else a page on another origin cannot call the API (Fetch standard §4.8).
 * @throws CheckFailure naming the status.
 */
export function preflightAnswered(exchange: CapturedExchange): void {
  const status = exchange.response!.status;
  expectThat(status >= 200 && status < 300, `An OPTIONS preflight was answered ${status}: a page on another origin cannot call the API (browsers send preflights without the key, Fetch standard §4.8)`, exchange, {
    expected: 'a 2xx to a preflight',
    found: `status ${status}`,
  });
}

/** A refusal to wait out (http/retry-policy.ts: 429, or 503 with a Retry-After that parses), not an answer: R-4-ANSWERS' reading, as active runs wait them out. */
export function waitedOut(response: { status: number; headers: Record<string, string> }): boolean {
  return refusalOf(response) !== undefined;
}

/** Credentials that carry no token: their 401 challenges nothing about a token (RFC 6750 §3.1). */
export const INVALID_WITHOUT_SCHEME = new Set(['basic-scheme', 'no-scheme', 'other-scheme']);

/** `[name, description]` of a category or body with a string name, as a key; undefined otherwise. */
export function fieldsKeyOf(value: unknown): string | undefined {
  const { name, description } = (value ?? {}) as { name?: unknown; description?: unknown };
  if (typeof name !== 'string') return undefined;
  // The name's length first: no name and description can spell another pair's key (a list of 60,000 is keyed in a few ms, not 40).
  return typeof description === 'string' ? `${name.length}:${name}:${description}` : `${name.length}:${name}`;
}

/**
 * model-based-sequences, on a capture: no category that a refused create's fields name
 * appears in a list after the refusal, unless a list before it already held it or a
 * create of the capture made it (4.2: a refused create creates nothing). The active
 * judgement (judgements/model.ts) finds its refused creates by a tag it wrote; a capture
 * carries none, so the fields and the earlier lists stand in for it.
 */
export function refusedAbsent(list: CapturedExchange, listed: ListedItems, refusals: readonly Refusal[], created: ReadonlyMap<string, unknown>): void {
  const byFields = new Map<string, Refusal[]>();
  for (const refusal of refusals) byFields.set(fieldsKeyOf(refusal.fields)!, [...(byFields.get(fieldsKeyOf(refusal.fields)!) ?? []), refusal]);
  for (const { id, value } of listed.items()) {
    const matching = byFields.get(fieldsKeyOf(value) ?? '');
    if (!matching || id === undefined) continue;
    const key = id.toString();
    const refusal = matching.find((candidate) => !candidate.listedBefore.has(key) && !created.has(key));
    expectThat(refusal === undefined, `Expected refused creates to stay absent, found id ${key} (${String((value as { name?: unknown }).name)}) holding the fields of the create refused in exchange #${refusal?.seq}`, list, {
      expected: 'refused creates absent',
      found: 'a refused create listed',
    });
  }
}

/** What a create's body is, by the NewCategory schema (section 2): the rule it falls under. */
export type BodyKind =
  | { kind: 'valid'; fields: SentFields; clientId?: bigint; extra: boolean }
  | { kind: 'create-rejects-missing-body' | 'create-rejects-malformed-json' | 'create-rejects-non-object' | 'create-rejects-missing-name' | 'create-rejects-wrong-type-name' | 'create-rejects-wrong-type-description'; words: string };

/** The rule a create's body falls under: valid (its fields, a client's id, unknown properties), or the invalid kind's check id and words. */
export function bodyKind(text: string | undefined): BodyKind {
  if (text === undefined || text === '') return { kind: 'create-rejects-missing-body', words: 'that is missing' };
  const parsed = parseJson(text);
  if (!parsed.ok) return { kind: 'create-rejects-malformed-json', words: 'that is not JSON' };
  const value = parsed.json.value;
  if (value === null || typeof value !== 'object' || Array.isArray(value)) return { kind: 'create-rejects-non-object', words: 'that is not a JSON object' };
  const { name, description } = value as { name?: unknown; description?: unknown };
  if (!('name' in value)) return { kind: 'create-rejects-missing-name', words: 'without name' };
  if (typeof name !== 'string') return { kind: 'create-rejects-wrong-type-name', words: 'whose name is not a string' };
  if ('description' in value && typeof description !== 'string') return { kind: 'create-rejects-wrong-type-description', words: 'whose description is not a string' };
  const clientId = 'id' in value ? exactInteger((parsed.json.tree as { id?: unknown }).id) : undefined;
  const extra = Object.keys(value).some((key) => key !== 'name' && key !== 'description');
  return { kind: 'valid', fields: { name, ...(typeof description === 'string' ? { description } : {}) }, ...(clientId !== undefined ? { clientId } : {}), extra };
}
