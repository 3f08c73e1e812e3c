import type { CheckDefinition } from '../check/types.js';
import type { Requirement } from '../requirements/catalogue.js';

/** What `petstore-conformance list --format json` prints. */
export interface CheckList {
  /** Every check, in declaration order. */
  checks: CheckDefinition[];
  /** The requirements catalogue: every normative statement the checks trace to. */
  requirements: readonly Requirement[];
}

/**
 * The checks as a JSON array, each with its id, clause, level, title and requirement ids
 * (for tools: `jq -r '.[] | select(.level == "must") | .id'`). The catalogue's statements
 * are in report.json's `requirements` and in the table.
 */
export function renderCheckListJson({ checks }: CheckList): string {
  return `${JSON.stringify(checks, null, 2)}\n`;
}

/**
 * The list as aligned text: one line per check (id, clause, level, title, the ids of the
 * requirements it tests), then one per requirement (id, clause, level, quote).
 */
export function renderCheckListTable({ checks, requirements }: CheckList): string {
  const checkRows = checks.map((c) => [c.id, c.clause, c.level, c.title, c.requirements.join(',')]);
  const requirementRows = requirements.map((r) => [r.id, r.clause, r.level, r.quote]);
  return [
    `Checks (${checks.length})`,
    ...aligned([['ID', 'CLAUSE', 'LEVEL', 'TITLE', 'REQUIREMENTS'], ...checkRows]),
    '',
    `Requirements (${requirements.length})`,
    ...aligned([['ID', 'CLAUSE', 'LEVEL', 'STATEMENT'], ...requirementRows]),
    '',
  ].join('\n');
}

/** Rows with every column but the last padded to its widest cell. */
function aligned(rows: string[][]): string[] {
  const widths = rows[0]!.map((_, i) => Math.max(...rows.map((row) => row[i]!.length)));
  return rows.map((row) => row.map((cell, i) => (i < row.length - 1 ? cell.padEnd(widths[i]!) : cell)).join('  ').trimEnd());
}
