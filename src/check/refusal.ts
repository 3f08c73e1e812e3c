import type { Exchange } from '../core/exchange.js';
import type { CheckContext } from './context.js';
import { expectCreated, expectResponse, expectSameFields, type SentFields } from './expect.js';
import { CheckFailure } from '../core/errors.js';
import {
  bisectLimit,
  codePoints,
  EVERYDAY_LENGTH,
  explainingMeasures,
  measuresFromProbes,
  TELLING_CHARACTERS,
  FIELDS,
  mayExceedLimit,
  type Field,
  type FieldValues,
  type LengthObservation,
  type ProbeOutcome,
} from './length-limit.js';
import { settleAll } from './settle.js';

/** Statuses that refuse a value: 400 (4.2: invalid values) and 413 Content Too Large (section 8: size limits). */
export const REFUSAL_STATUSES: readonly number[] = [400, 413];

/** Whether the target refused the create (400 or 413) rather than answering it otherwise. */
export function isRefusal(exchange: Exchange): boolean {
  return exchange.response !== undefined && REFUSAL_STATUSES.includes(exchange.response.status);
}

/**
 * A class of valid values that a server may refuse as a whole, as a policy: section 4.2
 * allows 400 for "invalid values" without defining them, and section 8 leaves limits open.
 * Refusing every value of a class (400, or 413 for size) while accepting every value outside
 * it is a policy, reported; refusing an everyday value, or a value of a class accepted
 * elsewhere, is not.
 */
export type ValueClass = 'nul' | 'control' | 'tab-or-line-break' | 'del' | 'outside-bmp' | 'edge-whitespace' | 'empty';

/**
 * Each class: whether a text belongs to it, and what its members hold, in words. The
 * classes are as fine as the policies real validators draw: `/[\x00-\x1f]/` refuses C0
 * controls and accepts DEL, so DEL is a class of its own; a value holding several classes
 * is explained by any one of them that no accepted value holds.
 */
export const VALUE_CLASSES: Readonly<Record<ValueClass, { holds: (text: string) => boolean; words: string }>> = {
  // PostgreSQL's text cannot hold NUL: a server may refuse NUL alone.
  nul: { holds: (text) => text.includes('\u0000'), words: 'holding NUL' },
  control: { holds: (text) => /[\u0001-\u0008\u000b\u000c\u000e-\u001f]/.test(text), words: 'holding a C0 control character other than NUL, tab and line breaks' },
  'tab-or-line-break': { holds: (text) => /[\t\n\r]/.test(text), words: 'holding a tab or line break' },
  del: { holds: (text) => text.includes('\u007f'), words: 'holding DEL (U+007F)' },
  'outside-bmp': { holds: (text) => /[\u{10000}-\u{10ffff}]/u.test(text), words: 'holding a character outside the BMP' },
  'edge-whitespace': { holds: (text) => /^\s|\s$/u.test(text), words: 'with whitespace at either end' },
  empty: { holds: (text) => text === '', words: 'that are empty' },
};

/** A field's value in a class: what a policy refuses. */
export interface FieldClass {
  field: Field;
  valueClass: ValueClass;
}

/** The classes each field of these values belongs to. */
export function classesOf(fields: FieldValues): FieldClass[] {
  return FIELDS.flatMap((field) => {
    const text = fields[field];
    if (text === undefined) return [];
    return (Object.keys(VALUE_CLASSES) as ValueClass[]).filter((valueClass) => VALUE_CLASSES[valueClass].holds(text)).map((valueClass) => ({ field, valueClass }));
  });
}

/**
 * Whether a refusal of these valid values may be allowed: they belong to a class a policy
 * may refuse, or are long enough to exceed a limit (section 8). Both are judged afterwards,
 * over every create of the check ({@link judgeRefusals}). False: the values are everyday
 * ones and must be created (4.2/R1).
 */
export function mayBeRefused(fields: FieldValues): boolean {
  return classesOf(fields).length > 0 || mayExceedLimit(fields);
}

/** One create of valid values and how the target answered it: accepted exactly, or refused. */
export type RefusalObservation = LengthObservation;

/**
 * Judges the refusals of valid values once a property has run, over every create of valid
 * values it made (accepted and refused): first the classes refused as a policy, then the
 * lengths refused as a limit. Each policy and limit found is an observation.
 * - A policy: a class of a field refused in some create and accepted in none. Each refusal
 *   must hold a policy's class or exceed a limit; the smallest refused value of each
 *   policy is sent once more and must be refused again (the same value accepted once and
 *   refused once is no policy).
 * - A limit: see {@link judgeLengthLimits}, over the refusals no policy explains.
 * @throws CheckFailure for a refusal no policy or limit explains, a value refused and then
 *   accepted, or a probe answered otherwise than by an exact 201 or a refusal.
 */
export async function judgeRefusals(t: CheckContext, observations: readonly RefusalObservation[]): Promise<void> {
  const key = ({ field, valueClass }: FieldClass) => `${field} ${valueClass}`;
  const accepted = new Set(observations.filter((o) => o.accepted).flatMap((o) => classesOf(o.fields).map(key)));
  const policies = new Map<string, { fieldClass: FieldClass; refusals: RefusalObservation[] }>();
  const unexplained: RefusalObservation[] = [];
  for (const observation of observations.filter((o) => !o.accepted)) {
    const refusable = classesOf(observation.fields).filter((fieldClass) => !accepted.has(key(fieldClass)));
    for (const fieldClass of refusable) {
      if (!policies.has(key(fieldClass))) policies.set(key(fieldClass), { fieldClass, refusals: [] });
      policies.get(key(fieldClass))!.refusals.push(observation);
    }
    if (refusable.length === 0) unexplained.push(observation);
  }
  const notLengths = unexplained.filter((observation) => !mayExceedLimit(observation.fields));
  if (notLengths.length > 0) {
    const { exchange, fields } = notLengths[0]!;
    const classes = classesOf(fields).map(({ field, valueClass }) => `${field} ${VALUE_CLASSES[valueClass].words}`);
    throw new CheckFailure(
      `Expected 201 for a valid body (${classes.join(', ')}), received ${exchange.response?.status}: values of its kind were accepted in other creates, so no consistent policy explains the refusal`,
      exchange,
      { expected: 'status 201 for a valid body', found: `status ${exchange.response?.status}` },
    );
  }
  for (const { fieldClass, refusals } of policies.values()) await confirmPolicy(t, fieldClass, refusals);
  const byField = new Map<Field, Array<{ valueClass: ValueClass; statuses: number[] }>>();
  for (const { fieldClass, refusals } of policies.values()) {
    const statuses = [...new Set(refusals.map((refusal) => refusal.exchange.response!.status))].sort();
    byField.set(fieldClass.field, [...(byField.get(fieldClass.field) ?? []), { valueClass: fieldClass.valueClass, statuses }]);
  }
  for (const [field, classes] of byField) t.observe(policyWords(field, classes));
  const explained = new Set([...policies.values()].flatMap(({ refusals }) => refusals));
  await judgeLengthLimits(t, observations.filter((observation) => !explained.has(observation)));
}

/**
 * Sends the smallest refused value of a policy once more: it must be refused again.
 * @throws CheckFailure when it is accepted, or answered otherwise than by a refusal.
 */
async function confirmPolicy(t: CheckContext, { field, valueClass }: FieldClass, refusals: readonly RefusalObservation[]): Promise<void> {
  const size = (o: RefusalObservation) => FIELDS.reduce((sum, f) => sum + (o.fields[f]?.length ?? 0), 0);
  const smallest = [...refusals].sort((a, b) => size(a) - size(b))[0]!;
  const again = await t.create({ json: smallest.fields });
  if (isRefusal(again)) return;
  if (expectResponse(again).status === 201) {
    throw new CheckFailure(
      `Expected the refusal of a ${field} ${VALUE_CLASSES[valueClass].words} to hold, found the same body refused (${smallest.exchange.response?.status}) and then accepted (201): no consistent policy`,
      again,
      { expected: 'the same answer to the same body', found: `status ${smallest.exchange.response?.status}, then 201` },
    );
  }
  expectSameFields(again, expectCreated(again), smallest.fields as SentFields);
}

/**
 * The observation of the policies of one field: `names holding a control character, tab
 * or line break included, are refused (400)` (every ASCII control: C0 and DEL), or `a C0
 * control character` when DEL was accepted.
 */
export function policyWords(field: Field, classes: ReadonlyArray<{ valueClass: ValueClass; statuses: readonly number[] }>): string {
  const has = new Set(classes.map((c) => c.valueClass));
  const controls: ValueClass[] = ['nul', 'control', 'tab-or-line-break'];
  const parts: string[] = [];
  // A control character is C0 (U+0000 to U+001F) or DEL; a validator of C0 alone accepts DEL.
  const kind = has.has('del') ? 'a control character' : 'a C0 control character';
  if (controls.every((c) => has.has(c))) parts.push(`holding ${kind}, tab or line break included`);
  else if (has.has('nul') && has.has('control')) parts.push(`holding ${kind} (tab and line breaks accepted)`);
  else for (const c of [...controls, 'del' as const].filter((c) => has.has(c))) parts.push(VALUE_CLASSES[c].words);
  for (const c of (['outside-bmp', 'edge-whitespace', 'empty'] as const).filter((c) => has.has(c))) parts.push(VALUE_CLASSES[c].words);
  const statuses = [...new Set(classes.flatMap((c) => c.statuses))].sort().join(', ');
  const phrase = parts.join(', or ');
  return `${field}s ${phrase}${phrase.endsWith('included') ? ',' : ''} are refused (${statuses}): a policy (4.2 leaves "invalid values" open)`;
}

/**
 * Judges the creates of valid values that the target refused as too long, once a
 * property has run: finds each refused field's limit by bisection, and checks that one
 * measure explains every acceptance and refusal seen. A limit is an observation (section 8:
 * "length limits for fields: not shown"); a limit below {@link EVERYDAY_LENGTH}, or
 * refusals no limit explains, fail 4.2/R1.
 * @throws CheckFailure for a refusal that is not a limit, or a probe answered otherwise
 *   than by an exact 201 or a refusal.
 */
export async function judgeLengthLimits(t: CheckContext, observations: readonly LengthObservation[]): Promise<void> {
  const refused = observations.filter((observation) => !observation.accepted);
  if (refused.length === 0) return;
  const limits: Partial<Record<Field, number>> = {};
  for (const field of FIELDS) {
    const over = refused.map((observation) => Buffer.byteLength(observation.fields[field] ?? '')).filter((bytes) => bytes > EVERYDAY_LENGTH);
    if (over.length === 0) continue;
    const found = await bisectLimit((length) => probeLength(t, field, length), Math.max(...over));
    if (typeof found === 'object') {
      throw new CheckFailure(
        `Expected a ${field} of ${EVERYDAY_LENGTH} characters to be created, found it refused: a limit below ${EVERYDAY_LENGTH} characters refuses everyday values`,
        t.exchanges.at(-1)!,
        { expected: `status 201 for a ${field} of ${EVERYDAY_LENGTH} characters`, found: `status ${t.exchanges.at(-1)!.response?.status}` },
      );
    }
    if (found !== undefined) limits[field] = found;
  }
  const judged = explainingMeasures(observations, limits);
  if ('unexplained' in judged) {
    const { exchange, fields } = judged.unexplained;
    const sizes = FIELDS.filter((field) => fields[field] !== undefined).map((field) => `${field} of ${codePoints(fields[field]!)} characters (${Buffer.byteLength(fields[field]!)} bytes)`);
    const bounds = FIELDS.map((field) => `${field} ${limits[field] ?? 'unlimited'}`).join(', ');
    throw new CheckFailure(
      `Expected 201 for a valid body (${sizes.join(', ')}), received ${exchange.response?.status}: no length limit explains the refusals (longest accepted by probes: ${bounds})`,
      exchange,
      { expected: 'status 201 for a valid body', found: `status ${exchange.response?.status}` },
    );
  }
  for (const field of FIELDS) {
    const limit = limits[field];
    if (limit === undefined) continue;
    let measures = judged.measures;
    if (measures.length > 1) {
      // What was seen fits several ways of counting: two probes of wider characters tell them apart.
      const outcomes = await settleAll(TELLING_CHARACTERS.map((character) => probeLength(t, field, limit, character)));
      measures = measures.filter((measure) => measuresFromProbes(limit, outcomes).includes(measure));
    }
    const status = refused.find((observation) => Buffer.byteLength(observation.fields[field] ?? '') > limit)?.exchange.response?.status;
    const unit = measures.length === 1 ? measures[0] : 'characters (counted inconsistently)';
    t.observe(`${field}s longer than ${limit} ${unit} are refused (${status}): a length limit (section 8)`);
  }
}

/**
 * Creates a body whose `field` has `length` characters: the check's label padded with
 * ASCII, or `length` times `character`; the rest is short.
 */
async function probeLength(t: CheckContext, field: Field, length: number, character?: string): Promise<ProbeOutcome> {
  const label = t.name(`limit ${field} ${length}${character ? ` ${character}` : ''}`);
  const text = character ? character.repeat(length) : label + 'x'.repeat(Math.max(0, length - label.length));
  const fields = field === 'name' ? { name: text } : { name: label, description: character ? text : 'x'.repeat(length) };
  const exchange = await t.create({ json: fields });
  if (isRefusal(exchange)) return 'refused';
  expectSameFields(exchange, expectCreated(exchange), fields);
  return 'accepted';
}
