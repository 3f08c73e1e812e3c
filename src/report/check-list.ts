import { premiseOf } from '../check/premises.js';
import type { CheckDefinition } from '../check/types.js';
import { REQUEST_VARIATIONS } from '../http/request-variations.js';
import type { Requirement } from '../requirements/catalogue.js';
import wrapAnsi from 'wrap-ansi';

/** What `petstore-conformance list --format json` prints. */
export interface CheckList {
  /** Every check, in declaration order. */
  checks: CheckDefinition[];
  /** The requirements catalogue: every normative statement the checks trace to. */
  requirements: readonly Requirement[];
}

/**
 * The checks as a JSON array, each with its id, clause, level, title, requirement ids and
 * premise: which requests its rule holds for (check/premises.ts), the same for a run and
 * for captured traffic (for tools: `jq -r '.[] | select(.level == "must") | .id'`). The
 * catalogue's statements are in report.json's `requirements` and in the table.
 */
export function renderCheckListJson({ checks }: CheckList): string {
  return `${JSON.stringify(checks.map((check) => ({ ...check, premise: premiseFor(check.id) })), null, 2)}\n`;
}

/** The request variations (http/request-variations.ts) as a JSON array: each with its kind, the highest level a rule about it has, its honest refusal. */
export function renderVariationsJson(): string {
  return `${JSON.stringify(REQUEST_VARIATIONS, null, 2)}\n`;
}

function premiseFor(checkId: string): { id: string; words: string } {
  const { id, words } = premiseOf(checkId);
  return { id, words };
}

/** Columns `list` fits by default: a terminal of 80 (`--wide` prints the whole table). */
export const LIST_WIDTH = 80;

/**
 * The list as aligned text: the checks, then the requirements, then the request
 * variations. Wide (`--wide`): one line each, every column in full (a check's premise and
 * the requirements it tests, a variation's source). Else the columns that tell them apart
 * on one line, and the last (title, statement, what) wrapped below it to fit `width`, with
 * a line saying how to see the rest.
 * @param width columns a line takes at most; undefined: the wide table.
 */
export function renderCheckListTable({ checks, requirements }: CheckList, width?: number): string {
  const wide = width === undefined;
  const checkRows = checks.map((c) => (wide ? [c.id, c.clause, c.level, premiseOf(c.id).id, c.title, c.requirements.join(',')] : [c.id, c.clause, c.level, c.title]));
  const requirementRows = requirements.map((r) => [r.id, r.clause, r.level, r.quote]);
  const variationRows = REQUEST_VARIATIONS.map((v) => [v.id, v.kind, v.level, v.honestRefusal ? String(v.honestRefusal.status) : '-', ...(wide ? [v.source] : []), v.what]);
  return [
    `Checks (${checks.length})`,
    ...aligned([wide ? ['ID', 'CLAUSE', 'LEVEL', 'PREMISE', 'TITLE', 'REQUIREMENTS'] : ['ID', 'CLAUSE', 'LEVEL', 'TITLE'], ...checkRows], width),
    '',
    `Requirements (${requirements.length})`,
    ...aligned([['ID', 'CLAUSE', 'LEVEL', 'STATEMENT'], ...requirementRows], width),
    '',
    `Request variations (${REQUEST_VARIATIONS.length})`,
    ...aligned([wide ? ['ID', 'KIND', 'LEVEL', 'HONEST REFUSAL', 'SOURCE', 'WHAT'] : ['ID', 'KIND', 'LEVEL', 'REFUSAL', 'WHAT'], ...variationRows], width),
    '',
    ...(wide ? [] : [wrapAnsi('--wide prints every column on one line (premises, requirements, sources); --format json, for tools.', width), '']),
  ].join('\n');
}

/** Indent of the last column, wrapped below its row, in the narrow table. */
const BELOW = 4;

/**
 * Rows with every column but the last padded to its widest cell. With a width, the last
 * column goes below its row, wrapped to the width and indented (its heading too).
 */
function aligned(rows: string[][], width?: number): string[] {
  const widths = rows[0]!.map((_, i) => Math.max(...rows.map((row) => row[i]!.length)));
  const padded = (cells: string[]) => cells.map((cell, i) => (i < cells.length - 1 ? cell.padEnd(widths[i]!) : cell)).join('  ').trimEnd();
  if (width === undefined) return rows.map(padded);
  return rows.flatMap((row) => [padded(row.slice(0, -1)), ...wrapAnsi(row.at(-1)!, width - BELOW, { hard: true }).split('\n').map((line) => `${' '.repeat(BELOW)}${line}`)]);
}
