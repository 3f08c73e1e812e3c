/**
 * Every mutable site of the sources, found with the TypeScript compiler's syntax tree, under
 * seven operator classes (issue 47): what `npm run mutations -- --sample-fresh` draws from.
 * Pure: a file's text in, its sites out; nothing is written here.
 */
import ts from 'typescript';

/** The seven operator classes, in the order a draw numbers them. */
export const OPERATOR_CLASSES = ['comparison flipped', 'condition negated', 'constant changed', 'statement removed', 'logical operator swapped', 'early return', 'string changed'] as const;
export type OperatorClass = (typeof OPERATOR_CLASSES)[number];

/** One mutation a site allows: replace the text at [start, end) of `file` with `replacement`. */
export interface Site {
  file: string;
  /** 1-based line of `start`. */
  line: number;
  operator: OperatorClass;
  /** The change in a few words: `<= -> <`, `statement deleted`, `'x' -> ''`. */
  what: string;
  start: number;
  end: number;
  replacement: string;
}

const FLIPPED: Partial<Record<ts.SyntaxKind, string>> = {
  [ts.SyntaxKind.LessThanToken]: '<=',
  [ts.SyntaxKind.LessThanEqualsToken]: '<',
  [ts.SyntaxKind.GreaterThanToken]: '>=',
  [ts.SyntaxKind.GreaterThanEqualsToken]: '>',
  [ts.SyntaxKind.EqualsEqualsEqualsToken]: '!==',
  [ts.SyntaxKind.ExclamationEqualsEqualsToken]: '===',
  [ts.SyntaxKind.EqualsEqualsToken]: '!=',
  [ts.SyntaxKind.ExclamationEqualsToken]: '==',
};

/**
 * The sites of one source file (its text, or the program's parsed file). `returnsNothing` says whether a function may return early
 * with a bare `return;` (its return type is void, undefined or a promise of them): a draw
 * elsewhere would not compile. Strings are not mutated where they name a module or a type.
 */
export function sitesOf(file: string, code: string | ts.SourceFile, returnsNothing: (fn: ts.SignatureDeclaration) => boolean = () => false): Site[] {
  // The program's own file when the checker is asked (returnsNothing): its nodes are the ones the checker knows.
  const source = typeof code === 'string' ? ts.createSourceFile(file, code, ts.ScriptTarget.Latest, true) : code;
  const sites: Site[] = [];
  const add = (operator: OperatorClass, what: string, start: number, end: number, replacement: string) =>
    sites.push({ file, line: source.getLineAndCharacterOfPosition(start).line + 1, operator, what, start, end, replacement });
  const visit = (node: ts.Node): void => {
    if (ts.isTypeNode(node) || ts.isImportDeclaration(node) || ts.isExportDeclaration(node) || ts.isInterfaceDeclaration(node) || ts.isTypeAliasDeclaration(node)) return;
    if (ts.isBinaryExpression(node)) {
      const kind = node.operatorToken.kind;
      const token = node.operatorToken;
      const flipped = FLIPPED[kind];
      if (flipped) add('comparison flipped', `${token.getText()} -> ${flipped}`, token.getStart(), token.getEnd(), flipped);
      if (kind === ts.SyntaxKind.AmpersandAmpersandToken || kind === ts.SyntaxKind.BarBarToken) {
        const swapped = kind === ts.SyntaxKind.AmpersandAmpersandToken ? '||' : '&&';
        add('logical operator swapped', `${token.getText()} -> ${swapped}`, token.getStart(), token.getEnd(), swapped);
      }
    }
    const tested = ts.isIfStatement(node) || ts.isWhileStatement(node) || ts.isDoStatement(node) ? node.expression : ts.isConditionalExpression(node) || ts.isForStatement(node) ? node.condition : undefined;
    if (tested) add('condition negated', 'condition negated', tested.getStart(), tested.getEnd(), `!(${tested.getText()})`);
    if (ts.isNumericLiteral(node)) {
      const value = Number(node.text);
      const changed = value === 0 ? ['1'] : value === 1 ? ['0'] : [String(value + 1), String(value - 1)];
      for (const to of changed) add('constant changed', `${node.getText()} -> ${to}`, node.getStart(), node.getEnd(), to);
    }
    if (node.kind === ts.SyntaxKind.TrueKeyword || node.kind === ts.SyntaxKind.FalseKeyword) {
      const to = node.kind === ts.SyntaxKind.TrueKeyword ? 'false' : 'true';
      add('constant changed', `${node.getText()} -> ${to}`, node.getStart(), node.getEnd(), to);
    }
    if (ts.isExpressionStatement(node) && ts.isBlock(node.parent)) add('statement removed', 'statement deleted', node.getStart(), node.getEnd(), '');
    if ((ts.isFunctionDeclaration(node) || ts.isMethodDeclaration(node) || ts.isArrowFunction(node) || ts.isFunctionExpression(node)) && node.body && ts.isBlock(node.body) && node.body.statements.length > 0 && returnsNothing(node)) {
      const first = node.body.statements[0]!;
      add('early return', 'return at the start', first.getStart(), first.getStart(), 'return;\n');
    }
    if ((ts.isStringLiteral(node) || ts.isNoSubstitutionTemplateLiteral(node)) && !namesModuleOrKey(node)) {
      const quote = node.getText()[0]!;
      const to = node.text === '' ? `${quote}mutated${quote}` : `${quote}${quote}`;
      add('string changed', `${node.getText().slice(0, 40)} -> ${to}`, node.getStart(), node.getEnd(), to);
    }
    ts.forEachChild(node, visit);
  };
  visit(source);
  return sites;
}

/** A string that names a module (an import, `import()`), a declared module or a property: changing it does not change behaviour the tests could see, or does not compile. */
function namesModuleOrKey(node: ts.StringLiteral | ts.NoSubstitutionTemplateLiteral): boolean {
  const parent = node.parent;
  if (ts.isCallExpression(parent) && parent.expression.kind === ts.SyntaxKind.ImportKeyword) return true;
  if (ts.isModuleDeclaration(parent) || ts.isExternalModuleReference(parent) || ts.isLiteralTypeNode(parent)) return true;
  if ((ts.isPropertyAssignment(parent) || ts.isPropertyDeclaration(parent) || ts.isMethodDeclaration(parent)) && parent.name === node) return true;
  // 'use strict' and other directives.
  return ts.isExpressionStatement(parent);
}

/** The text of the whole lines a site touches, before and after it: how a sample records it (`from`, `to`). */
export function linesAround(text: string, site: Pick<Site, 'start' | 'end' | 'replacement'>): { from: string; to: string } {
  const first = text.lastIndexOf('\n', site.start - 1) + 1;
  const newline = text.indexOf('\n', site.end);
  const last = newline === -1 ? text.length : newline;
  return { from: text.slice(first, last), to: text.slice(first, site.start) + site.replacement + text.slice(site.end, last) };
}

/** `text` with the site applied. */
export function applied(text: string, site: Pick<Site, 'start' | 'end' | 'replacement'>): string {
  return text.slice(0, site.start) + site.replacement + text.slice(site.end);
}

/** The comparisons that order (`<`, `<=`, `>`, `>=`). */
const ORDERING = new Set([ts.SyntaxKind.LessThanToken, ts.SyntaxKind.LessThanEqualsToken, ts.SyntaxKind.GreaterThanToken, ts.SyntaxKind.GreaterThanEqualsToken]);

/**
 * The comparisons of a source file against a named bound: an ordering comparison with a
 * constant named in capitals on one side (`seen.size > FULLY_REDACTED_SECRETS`). Each is a
 * decision drawn at a bound, and needs a near miss on each side (issue 60 §1): the mutation
 * list moves each by one, and its test must fail.
 * @returns each comparison's text as written, its 1-based line and the bound's name.
 */
export function boundComparisons(file: string, code: string): Array<{ line: number; text: string; bound: string }> {
  const source = ts.createSourceFile(file, code, ts.ScriptTarget.Latest, true);
  const found: Array<{ line: number; text: string; bound: string }> = [];
  const visit = (node: ts.Node): void => {
    if (ts.isBinaryExpression(node) && ORDERING.has(node.operatorToken.kind)) {
      // The last capitalised name of a side: `SETTINGS.BODY_BYTES` is bound by BODY_BYTES.
      const bound = [node.left, node.right].map((side) => [...side.getText().matchAll(/(?:^|\.)([A-Z][A-Z0-9_]{2,})\b/g)].at(-1)?.[1]).find((name) => name !== undefined);
      if (bound) found.push({ line: source.getLineAndCharacterOfPosition(node.getStart()).line + 1, text: node.getText(), bound });
    }
    ts.forEachChild(node, visit);
  };
  visit(source);
  return found;
}
