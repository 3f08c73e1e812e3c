import { premiseOf } from '../check/premises.js';
import type { CheckDefinition } from '../check/types.js';
import { REQUEST_VARIATIONS } from '../http/request-variations.js';
import type { Requirement } from '../requirements/catalogue.js';

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

/**
 * The list as aligned text: one line per check (id, clause, level, premise, title, the ids
 * of the requirements it tests), then one per requirement (id, clause, level, quote), then
 * one per request variation (id, kind, level, honest refusal, source).
 */
export function renderCheckListTable({ checks, requirements }: CheckList): string {
  const checkRows = checks.map((c) => [c.id, c.clause, c.level, premiseOf(c.id).id, c.title, c.requirements.join(',')]);
  const requirementRows = requirements.map((r) => [r.id, r.clause, r.level, r.quote]);
  const variationRows = REQUEST_VARIATIONS.map((v) => [v.id, v.kind, v.level, v.honestRefusal ? String(v.honestRefusal.status) : '-', v.source, v.what]);
  return [
    `Checks (${checks.length})`,
    ...aligned([['ID', 'CLAUSE', 'LEVEL', 'PREMISE', 'TITLE', 'REQUIREMENTS'], ...checkRows]),
    '',
    `Requirements (${requirements.length})`,
    ...aligned([['ID', 'CLAUSE', 'LEVEL', 'STATEMENT'], ...requirementRows]),
    '',
    `Request variations (${REQUEST_VARIATIONS.length})`,
    ...aligned([['ID', 'KIND', 'LEVEL', 'HONEST REFUSAL', 'SOURCE', 'WHAT'], ...variationRows]),
    '',
  ].join('\n');
}

/** Rows with every column but the last padded to its widest cell. */
function aligned(rows: string[][]): string[] {
  const widths = rows[0]!.map((_, i) => Math.max(...rows.map((row) => row[i]!.length)));
  return rows.map((row) => row.map((cell, i) => (i < row.length - 1 ? cell.padEnd(widths[i]!) : cell)).join('  ').trimEnd());
}
