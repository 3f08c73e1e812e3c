/**
 * The architecture, enforced: the folders under src/ form layers, each importing only from
 * the layers below it (so no folder cycle can form), and the code uses undici's public API
 * alone (an upgrade must not break the run at load time), but for one module: undici's
 * parts loaded one by one (http/undici-parts.ts), each proved to be undici's own export by
 * test/unit/undici-parts.test.ts.
 */
import { readdirSync, readFileSync, statSync } from 'node:fs';
import { dirname, join, relative, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';
import { describe, expect, test } from 'vitest';

const SRC = fileURLToPath(new URL('../../src/', import.meta.url));

/** The layers, lowest first: a unit may import from its own layer's unit and from units listed before it. */
const LAYERS = [
  ['core', 'json', 'secrets'],
  ['schema', 'requirements'],
  ['config'],
  ['http'],
  ['arbitraries', 'reference'],
  ['check'],
  ['judgements'],
  ['report'],
  ['traffic'],
  ['runner'],
  ['cli', 'ci'],
  ['index.ts'],
] as const;

const rank = new Map<string, number>(LAYERS.flatMap((layer, i) => layer.map((unit) => [unit, i] as const)));

/** Every .ts file under a directory. */
function sources(dir: string): string[] {
  return readdirSync(dir).flatMap((name) => {
    const path = join(dir, name);
    return statSync(path).isDirectory() ? sources(path) : path.endsWith('.ts') ? [path] : [];
  });
}

/** The unit of a file: its folder under src/, or the file itself at the top. */
const unitOf = (path: string) => relative(SRC, path).split('/')[0]!;

/** Module specifiers a file loads: `import … from`, `import()` and `require()`. */
function specifiers(text: string): string[] {
  return [...text.matchAll(/(?:\bfrom\s*|\bimport\s*\(\s*|\brequire\s*\(\s*)'([^']+)'/g)].map((match) => match[1]!);
}

const files = sources(SRC);
const edges = files.flatMap((file) =>
  specifiers(readFileSync(file, 'utf8'))
    .filter((specifier) => specifier.startsWith('.'))
    .map((specifier) => ({ file: relative(SRC, file), from: unitOf(file), to: unitOf(resolve(dirname(file), specifier)) }))
    .filter(({ from, to }) => from !== to),
);

describe('layers', () => {
  test('every unit of src/ has a layer', () => {
    expect([...new Set(files.map(unitOf))].filter((unit) => !rank.has(unit))).toEqual([]);
  });

  test('imports only go down: no folder imports a folder above it or beside it', () => {
    const upward = edges.filter(({ from, to }) => rank.get(to)! >= rank.get(from)!);
    expect(upward.map(({ file, to }) => `${file} → ${to}`)).toEqual([]);
  });

  test("undici is used through its public API only, but by the one module that loads its parts", () => {
    // Any quoted 'undici/…', whatever loads it (import, require, a require made by createRequire).
    const internal = files.filter((file) => /['"]undici\//.test(readFileSync(file, 'utf8')));
    expect(internal.map((file) => relative(SRC, file))).toEqual(['http/undici-parts.ts']);
  });
});
