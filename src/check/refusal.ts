import type { Exchange } from '../core/exchange.js';
import type { CheckContext } from './context.js';
import { expectCreated, expectSameFields } from './expect.js';
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

/**
 * C0 controls other than tab and line breaks, and DEL: a value holding one may be refused
 * with 400 (whether it is a valid name the spec does not settle), never crashed on or altered.
 */
export const REFUSABLE_CONTROL = /[\u0000-\u0008\u000b\u000c\u000e-\u001f\u007f]/;

/** Whether the target refused the create (400 or 413) rather than answering it otherwise. */
export function isRefusal(exchange: Exchange): boolean {
  return exchange.response !== undefined && REFUSAL_STATUSES.includes(exchange.response.status);
}

/**
 * Why a refusal of these valid values may be allowed: a control character, or a length
 * that may exceed a limit (section 8; judged afterwards as a whole, see length-limit.ts).
 * Undefined: the values are everyday ones and must be created (4.2/R1).
 */
export function allowedRefusal(fields: FieldValues): 'control' | 'length' | undefined {
  if (Object.values(fields).some((value) => typeof value === 'string' && REFUSABLE_CONTROL.test(value))) return 'control';
  return mayExceedLimit(fields) ? 'length' : undefined;
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
  expectSameFields(exchange, expectCreated(exchange), fields, 'the created category');
  return 'accepted';
}
