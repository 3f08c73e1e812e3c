import type { Exchange, RecordedResponse } from '../core/exchange.js';
import { outcomeLine, requestLine } from '../core/exchange.js';
import { isInt64 } from '../json/int64.js';
import { exactInteger, lexemeOf, parseJson, type ParsedJson } from '../json/lossless.js';
import { violationDetails, violations } from '../schema/validators.js';
import { CheckError, CheckFailure, type Deviation, hasCode } from '../core/errors.js';

/**
 * Assertions on exchanges. Each throws a {@link CheckFailure} carrying the exchange, with
 * a message that states what was expected and what was found.
 */

/**
 * The response of an exchange; fails when none arrived (timeout, reset, refused ...).
 * @throws CheckError when the answer outgrew the tool's size cap: a limit of the tool (the
 *   `maxResponseBytes` setting), not a rule of the spec, so no verdict on the server.
 */
export function expectResponse(exchange: Exchange): RecordedResponse {
  if (exchange.error?.code === 'RESPONSE_TOO_LARGE') {
    throw new CheckError(`${requestLine(exchange)}: the answer was not judged, ${exchange.error.message} (RESPONSE_TOO_LARGE; --max-response-bytes raises the cap of a list)`);
  }
  if (!exchange.response) {
    // What was found is the kind of failure alone: the requests a hung route left unanswered are one root cause, whatever each one's words.
    throw new CheckFailure(`Expected a response, received ${outcomeLine(exchange)}`, exchange, { expected: 'a response', found: `no response (${exchange.error?.code})` });
  }
  return exchange.response;
}

/** The response, after asserting its status code. */
export function expectStatus(exchange: Exchange, expected: number): RecordedResponse {
  const response = expectResponse(exchange);
  if (response.status !== expected) {
    const status = statusWords(response);
    throw new CheckFailure(`Expected status ${expected}, received ${status}`, exchange, { expected: `status ${expected}`, found: `status ${status}` });
  }
  return response;
}

/** A status as a failure names it: a redirect with where it points (`301, a redirect to /v1/categories/`), so the cause is read from the line. */
export function statusWords(response: RecordedResponse): string {
  const location = response.headers.location;
  return response.status >= 300 && response.status < 400 && location !== undefined ? `${response.status}, a redirect to ${location}` : `${response.status}`;
}

/** The response body parsed losslessly; fails when it is not UTF-8 JSON (RFC 8259 §8.1). */
export function expectJsonBody(exchange: Exchange): ParsedJson {
  const response = expectResponse(exchange);
  if (!response.utf8Valid) throw new CheckFailure('Expected a UTF-8 JSON body, received invalid UTF-8', exchange, { expected: 'a UTF-8 JSON body', found: 'invalid UTF-8' });
  const parsed = parseJson(response.body);
  if (!parsed.ok) {
    throw new CheckFailure(`Expected a JSON body, received text that is not JSON: ${parsed.reason}`, exchange, { expected: 'a JSON body', found: `not JSON (${parsed.reason})` });
  }
  return parsed.json;
}

/** A Category as the suite reads it: plain fields plus the exact id. */
export interface CategoryView {
  /** The exact id (spec section 2: int64). */
  id: bigint;
  name: string;
  description?: string;
}

/**
 * Reads one Category (spec section 2): valid against the Category schema, and an `id`
 * that is an exact integer within int64 (decided on the lexeme, not on a double).
 * A failure breaks section 2's Category and the success rule of the operation that
 * answered it (4.2/R1 for a create, 4.1's array of Categories for a list), and names the
 * same defect wherever it shows, so a create's answer and a listed item fold into one
 * root cause.
 * @param where prefix for messages, e.g. `item 3 of the list: `; a function, so that a
 *   list of 100,000 valid items builds none of them.
 * @param item its index in a list's array; absent: the body is the Category (a create's
 *   answer, the one operation that answers one).
 */
export function expectCategory(exchange: Exchange, tree: unknown, value: unknown, where: () => string = () => '', item?: number): CategoryView {
  const at = item === undefined ? '' : `/${item}`;
  const problems = violations('Category', value);
  if (problems.length > 0) {
    const found = problems.join('; ');
    throw new CheckFailure(`${where()}Expected a Category, found: ${found}`, exchange, categoryDeviation(item, 'a Category', found, found, `${at}${violationDetails('Category', value)[0]!.pointer}`));
  }
  const idNode = (tree as { id: unknown }).id;
  const id = exactInteger(idNode);
  if (id === undefined) {
    const deviation = categoryDeviation(item, 'an integer id', `id ${lexemeOf(idNode)}`, 'an id written as a number with a fraction or an exponent', `${at}/id`);
    throw new CheckFailure(`${where()}Expected an integer id, found ${lexemeOf(idNode)}`, exchange, deviation);
  }
  if (!isInt64(id)) {
    const deviation = categoryDeviation(item, 'an int64 id', `id ${lexemeOf(idNode)}`, 'an id outside int64', `${at}/id`);
    throw new CheckFailure(`${where()}Expected an int64 id, found ${lexemeOf(idNode)}, outside [-2^63, 2^63-1]`, exchange, deviation);
  }
  const { name, description } = value as { name: string; description?: string };
  return description === undefined ? { id, name } : { id, name, description };
}

/**
 * A deviation from section 2's Category in an answer: it breaks R-2-CATEGORY and the
 * success rule of the operation (a create's 4.2/R1; a list's 4.1, an array of Categories,
 * for an item).
 * @param defect what is wrong, the same words wherever it shows.
 */
function categoryDeviation(item: number | undefined, expected: string, found: string, defect: string, pointer: string): Deviation {
  return { expected, found, breaks: ['R-2-CATEGORY', item === undefined ? 'R-4.2-R1' : 'R-4.1-200'], defect: `a Category: ${defect}`, pointer };
}

/** The status-201 Category of a create (spec 4.2/R1). */
export function expectCreated(exchange: Exchange): CategoryView {
  expectStatus(exchange, 201);
  const json = expectJsonBody(exchange);
  return expectCategory(exchange, json.tree, json.value);
}

/** The status-200 array of Categories of a list (spec 4.1). */
export function expectCategoryList(exchange: Exchange): CategoryView[] {
  const json = expectListArray(exchange);
  const tree = json.tree as unknown[];
  return json.value.map((item, i) => expectCategory(exchange, tree[i], item, () => `item ${i} of the list: `, i));
}

/**
 * The status-200 JSON array of a list, its items not judged: for checks that look for
 * their own items only (spec 4.1 is list-items-are-categories' to judge), so that an
 * item another check had the server store does not fail them.
 */
export function expectListArray(exchange: Exchange): ParsedJson & { value: unknown[] } {
  expectStatus(exchange, 200);
  const json = expectJsonBody(exchange);
  if (!Array.isArray(json.value)) {
    throw new CheckFailure(`Expected a JSON array, found ${kindOf(json.value)}`, exchange, { expected: 'a JSON array', found: kindOf(json.value) });
  }
  return json as ParsedJson & { value: unknown[] };
}

/**
 * A list read for the items a check looks for (4.1/R1, 4.1/R2, section 2): the list must
 * be a status-200 JSON array, and an item is judged as a Category only when a check asks
 * for it by id. The other items are list-items-are-categories' to judge (4.1): an item
 * that some other check had the server store must not fail a check about something else,
 * nor make its verdict depend on which class ran first.
 */
export class ListedItems {
  readonly #exchange: Exchange;
  readonly #values: unknown[];
  readonly #tree: unknown[];
  /** Position of each item with an exact integer id (one index per list, not a search per lookup). */
  readonly #byId = new Map<bigint, number>();

  /** @throws CheckFailure when the list is not a status-200 JSON array. */
  constructor(exchange: Exchange) {
    const json = expectListArray(exchange);
    this.#exchange = exchange;
    this.#values = json.value;
    this.#tree = json.tree as unknown[];
    this.#tree.forEach((node, i) => {
      const id = exactInteger((node as { id?: unknown } | null)?.id);
      if (id !== undefined) this.#byId.set(id, i);
    });
  }

  /** Items in the list, whatever their shape. */
  get size(): number {
    return this.#values.length;
  }

  /** Whether an item has exactly this id. */
  has(id: bigint): boolean {
    return this.#byId.has(id);
  }

  /**
   * The item with this id, judged as a Category; undefined when no item has it.
   * @throws CheckFailure when that item is not a Category.
   */
  get(id: bigint): CategoryView | undefined {
    const i = this.#byId.get(id);
    return i === undefined ? undefined : expectCategory(this.#exchange, this.#tree[i], this.#values[i], () => `listed id ${id}: `, i);
  }

  /** The items as plain values, unjudged: for checks that look for a field (a tag), not an id. */
  get values(): readonly unknown[] {
    return this.#values;
  }

  /** Each item's exact id (undefined when it has no integer id) with its plain value, in list order. */
  *items(): Generator<{ id: bigint | undefined; value: unknown }> {
    for (const [i, value] of this.#values.entries()) yield { id: exactInteger((this.#tree[i] as { id?: unknown } | null)?.id), value };
  }
}

/** Fails with `message`, the exchange and what was expected and found, unless `condition` holds. */
export function expectThat(condition: boolean, message: string, exchange: Exchange, deviation?: Deviation): asserts condition {
  if (!condition) throw new CheckFailure(message, exchange, deviation);
}

/** JSON kind of a plain value, for messages. */
export function kindOf(value: unknown): string {
  if (value === null) return 'null';
  if (Array.isArray(value)) return 'an array';
  return typeof value === 'object' ? 'an object' : `a ${typeof value}`;
}

/** A string quoted for messages, long ones shortened. */
export function quote(text: string | undefined, max = 80): string {
  if (text === undefined) return 'absent';
  const shown = text.length > max ? `${text.slice(0, max)}…(${text.length} chars)` : text;
  return JSON.stringify(shown);
}

/**
 * Runs one assertion per case, concurrently, and fails with the first failing case's
 * message prefixed by its label, noting how many cases failed in all. With no case failing,
 * the first case that erred (could not be judged) makes the check err.
 */
export async function expectEachCase<T>(
  cases: readonly T[],
  label: (c: T) => string,
  assert: (c: T) => Promise<void>,
): Promise<void> {
  const outcomes = await Promise.allSettled(cases.map(assert));
  const rejected = outcomes.flatMap((outcome, i) => (outcome.status === 'rejected' ? [{ c: cases[i]!, reason: outcome.reason as unknown }] : []));
  // A case found failing fails the check, whatever another case could not judge (an error).
  const failures = rejected.flatMap(({ c, reason }) => (hasCode(reason, 'PCS_CHECK_FAILURE') ? [{ c, reason }] : []));
  if (failures.length === 0) {
    if (rejected.length > 0) throw rejected[0]!.reason;
    return;
  }
  const first = failures[0]!;
  const tally = cases.length > 1 ? ` (${failures.length} of ${cases.length} cases failed)` : '';
  throw new CheckFailure(`${label(first.c)}: ${first.reason.message}${tally}`, first.reason.exchange, first.reason.deviation);
}

/**
 * The response after asserting its status and an Error body (spec section 7) whose
 * `status` field equals it. A body that is no Error breaks section 7's shape (and 2's
 * Error), and the rule that names the Error body of this status (5/R2 for a 401, 4.2's
 * 400); a wrong status field breaks 7's rule alone: the status itself was right.
 */
export function expectErrorStatus(exchange: Exchange, expected: number): RecordedResponse {
  const response = expectStatus(exchange, expected);
  const json = expectJsonBody(exchange);
  const problems = violations('Error', json.value);
  if (problems.length > 0) {
    const found = problems.join('; ');
    const named = expected === 401 ? ['R-5-R2'] : expected === 400 ? ['R-4.2-400'] : [];
    const deviation = { expected: 'an Error body', found, breaks: ['R-7-SHAPE', 'R-2-ERROR', ...named], defect: `an Error body: ${found}`, pointer: violationDetails('Error', json.value)[0]!.pointer };
    throw new CheckFailure(`Expected an Error body, found: ${found}`, exchange, deviation);
  }
  const field = lexemeOf((json.tree as { status: unknown }).status);
  const status = exactInteger((json.tree as { status: unknown }).status);
  const deviation = { expected: `status field ${expected}`, found: `status field ${field}`, breaks: ['R-7-STATUS'], pointer: '/status' };
  expectThat(status === BigInt(expected), `Expected the Error status field ${expected}, found ${field}`, exchange, deviation);
  return response;
}

/** The fields a client sends for a category (section 2, NewCategory). */
export interface SentFields {
  name: string;
  description?: string;
}

/**
 * Asserts that a returned or listed category holds exactly the fields sent (4.2/R1):
 * the same name, and the same description when one was sent.
 * @param what names the category in messages, e.g. `listed id 5`; by default the one a create returned.
 */
export function expectSameFields(exchange: Exchange, found: CategoryView, fields: SentFields, what = 'the created category'): void {
  // Messages are built on failure only: a check compares thousands of fields of up to 5,000 characters.
  if (found.name !== fields.name) {
    throw new CheckFailure(`Expected ${what} to have name ${quote(fields.name)}, found ${quote(found.name)}${difference(fields.name, found.name)}`, exchange, {
      expected: 'the name sent',
      found: 'another name',
    });
  }
  if (fields.description !== undefined && found.description !== fields.description) {
    throw new CheckFailure(
      `Expected ${what} to have description ${quote(fields.description)}, found ${quote(found.description)}${difference(fields.description, found.description)}`,
      exchange,
      { expected: 'the description sent', found: found.description === undefined ? 'no description' : 'another description' },
    );
  }
}

/** `: at character 12, U+1F408 came back as U+FFFD U+FFFD`, or nothing when `found` is absent. */
function difference(sent: string, found: string | undefined): string {
  return found === undefined ? '' : `: ${describeDifference(sent, found)}`;
}

/**
 * Where two texts differ, as code points (what came back as what), after their common
 * start and end: `at character 12, U+1F408 came back as U+FFFD U+FFFD`. Shows the
 * damage a decoder or a column did where a quoted excerpt would hide it (a control
 * character, a lone replacement character).
 */
export function describeDifference(sent: string, found: string): string {
  const a = [...sent];
  const b = [...found];
  let start = 0;
  while (start < a.length && start < b.length && a[start] === b[start]) start++;
  let end = 0;
  while (end < a.length - start && end < b.length - start && a[a.length - 1 - end] === b[b.length - 1 - end]) end++;
  const shown = (chars: string[]) => {
    if (chars.length === 0) return 'nothing';
    const points = chars.slice(0, 6).map((c) => `U+${c.codePointAt(0)!.toString(16).toUpperCase().padStart(4, '0')}`);
    return points.join(' ') + (chars.length > 6 ? ` … (${chars.length} characters)` : '');
  };
  return `at character ${start + 1}, ${shown(a.slice(start, a.length - end))} came back as ${shown(b.slice(start, b.length - end))}`;
}
