import { isLosslessNumber, parse, type LosslessNumber } from 'lossless-json';
import { integerFromLexeme } from './int64.js';

/**
 * A JSON document parsed twice over from one pass: `tree` keeps every number as its
 * lexeme (lossless-json's LosslessNumber), `value` is the plain JavaScript view that
 * schema validation (ajv) works on.
 */
export interface ParsedJson {
  tree: unknown;
  value: unknown;
}

/** Outcome of {@link parseJson}: the document, or why the text is not JSON. */
export type JsonParseResult = { ok: true; json: ParsedJson } | { ok: false; reason: string };

/**
 * Parses JSON text (RFC 8259) without losing the exact value of any number.
 * Never throws: malformed text, duplicate keys with different values and empty text
 * are reported as `{ ok: false, reason }`.
 */
export function parseJson(text: string): JsonParseResult {
  if (text.trim() === '') return { ok: false, reason: 'the body is empty' };
  try {
    const tree = parse(text);
    return { ok: true, json: { tree, value: toPlain(tree) } };
  } catch (error) {
    return { ok: false, reason: (error as Error).message };
  }
}

/** The plain view: every LosslessNumber becomes a JavaScript number (possibly rounded). */
function toPlain(node: unknown): unknown {
  if (isLosslessNumber(node)) return Number((node as LosslessNumber).value);
  if (Array.isArray(node)) return node.map(toPlain);
  if (node !== null && typeof node === 'object') {
    // fromEntries defines own properties, so a "__proto__" key stays data.
    return Object.fromEntries(Object.entries(node).map(([key, child]) => [key, toPlain(child)]));
  }
  return node;
}

/**
 * The exact integer held by a lossless tree node, or `undefined` when the node is not
 * a number or not an integer (a string id, `1.5`, `null` ...).
 */
export function exactInteger(node: unknown): bigint | undefined {
  return isLosslessNumber(node) ? integerFromLexeme((node as LosslessNumber).value) : undefined;
}

/** The JSON lexeme of a lossless number node, or a JSON rendering of any other node. */
export function lexemeOf(node: unknown): string {
  if (isLosslessNumber(node)) return (node as LosslessNumber).value;
  return node === undefined ? 'absent' : JSON.stringify(node);
}
