/**
 * Valid NewCategory bodies (spec section 2: unknown members are not forbidden) that carry
 * one extra member deeper or wider than any client sends by accident, in two sets:
 * - within every mainstream parser's default limits ({@link PARSER_DEPTH_FLOOR} levels):
 *   created (201) or refused with an Error (400, or 413 under section 8), never a crash;
 * - past them (1,000 and 100,000 levels, 10,000 members, a 1 MiB string): RFC 8259 §9
 *   lets a parser limit depth, so a crash there is a robustness finding, never the verdict.
 * Written flat, as text: JSON.stringify recurses, and overflows its own stack at a few
 * thousand levels.
 */
import { LARGEST_BODY_BYTES, PARSER_DEPTH_FLOOR, PARSER_WIDTH_FLOOR } from '../http/request-variations.js';
import { covers, type CoverageInput } from './coverage.js';

/** One such body: its text, and the fields a 201 must carry back. */
export interface DeepBody {
  text: string;
  fields: { name: string };
}

/** The body `{"name": <name>, "extra": <extra>}`, with `extra` as JSON text. */
function withExtra(name: string, extra: string): DeepBody {
  return { text: `{"name":${JSON.stringify(name)},"extra":${extra}}`, fields: { name } };
}

/** Arrays nested `depth` levels deep: `[[[…]]]`. */
export const nestedArrays = (depth: number) => `${'['.repeat(depth)}${']'.repeat(depth)}`;

/** Objects nested `depth` levels deep: `{"a":{"a":…0…}}`. */
export const nestedObjects = (depth: number) => `${'{"a":'.repeat(depth)}0${'}'.repeat(depth)}`;

/** An object of `count` members: `{"m0":0,"m1":1,…}`. */
const wideObject = (count: number) => `{${Array.from({ length: count }, (_, i) => `"m${i}":${i}`).join(',')}}`;

/**
 * The coverage inputs within every mainstream parser's default limits, each sent once in
 * every run: a body nested {@link PARSER_DEPTH_FLOOR} levels deep (its extra member one
 * less) as arrays and as objects, and an extra member of {@link PARSER_WIDTH_FLOOR} members.
 * @param name the category name each body carries (test data, unique to the run).
 */
export function deepBodiesWithinLimits(name: (label: string) => string): Array<CoverageInput<DeepBody>> {
  const depth = PARSER_DEPTH_FLOOR - 1;
  return [
    covers(`an extra member nested ${depth} levels deep as arrays (the body ${PARSER_DEPTH_FLOOR})`, withExtra(name('arrays'), nestedArrays(depth))),
    covers(`an extra member nested ${depth} levels deep as objects (the body ${PARSER_DEPTH_FLOOR})`, withExtra(name('objects'), nestedObjects(depth))),
    covers(`an extra member that is an object of ${PARSER_WIDTH_FLOOR.toLocaleString('en-US')} members`, withExtra(name('wide'), wideObject(PARSER_WIDTH_FLOOR))),
  ];
}

/**
 * The coverage inputs past those limits, each sent once in every run: an extra member
 * nested 1,000 levels deep as arrays and as objects, 100,000 levels deep, an object of
 * 10,000 members, and a string that brings the body to exactly the largest the suite sends
 * (1 MiB).
 * @param name the category name each body carries (test data, unique to the run).
 */
export function deepBodiesBeyondLimits(name: (label: string) => string): Array<CoverageInput<DeepBody>> {
  const string = (() => {
    const shell = withExtra(name('string'), '""').text;
    return withExtra(name('string'), `"${'s'.repeat(LARGEST_BODY_BYTES - Buffer.byteLength(shell))}"`);
  })();
  return [
    covers('an extra member nested 1,000 levels deep as arrays', withExtra(name('arrays'), nestedArrays(1_000))),
    covers('an extra member nested 1,000 levels deep as objects', withExtra(name('objects'), nestedObjects(1_000))),
    covers('an extra member nested 100,000 levels deep as arrays', withExtra(name('deepest'), nestedArrays(100_000))),
    covers('an extra member that is an object of 10,000 members', withExtra(name('wide'), wideObject(10_000))),
    covers(`an extra member that is a string filling the body to ${LARGEST_BODY_BYTES} bytes`, string),
  ];
}
