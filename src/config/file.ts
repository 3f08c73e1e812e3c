import { dirname, resolve } from 'node:path';
import { isMap, isPair, isScalar, isSeq, LineCounter, parseDocument, visit, type Document, type Node } from 'yaml';
import { SETTING_LIST, type SettingValues } from './settings.js';
import { violationDetails, type SchemaName } from '../schema/validators.js';
import { UsageError } from '../core/errors.js';
import { readInput } from './read-input.js';

/**
 * One named target of the configuration file: the settings declared `config` in the table
 * (schemas/config.schema.json is generated from it), paths resolved against the file's folder.
 */
export type TargetConfig = SettingValues & { baseUrl: string };

/** A configuration file, read and validated once: its targets, by name. */
export interface ConfigFile {
  /** The target's names, in the file's order. */
  readonly names: string[];
  /**
   * One named target, its paths resolved against the file's folder.
   * @throws UsageError naming the targets that exist when `name` is not one of them.
   */
  target(name: string): TargetConfig;
  /**
   * The names `--targets` selects: `all`, or names separated by commas.
   * @throws UsageError naming a selected target the file lacks.
   */
  select(selection: string): string[];
}

/**
 * Reads a YAML configuration file, validated against its JSON Schema: one read for a
 * run, or for a fleet of all its targets.
 * @throws UsageError naming the file, line and column of the first problem (YAML syntax,
 *   schema violation).
 */
export async function loadConfig(path: string): Promise<ConfigFile> {
  const { targets } = (await readYamlFile(path, 'Config', 'configuration file')) as { targets: Record<string, TargetConfig> };
  const names = Object.keys(targets);
  const has = `it has: ${names.join(', ')}`;
  return {
    names,
    target(name) {
      const target = targets[name];
      if (!target) throw new UsageError(`${path} has no target "${name}"; ${has}`);
      const resolved: Record<string, unknown> = { ...target };
      for (const [setting, declared] of SETTING_LIST) {
        if (declared.type === 'path' && typeof resolved[setting] === 'string') resolved[setting] = resolve(dirname(path), resolved[setting] as string);
      }
      return resolved as TargetConfig;
    },
    select(selection) {
      if (selection === 'all') return names;
      const selected = [...new Set(selection.split(','))];
      const missing = selected.filter((name) => !names.includes(name));
      if (missing.length > 0) throw new UsageError(`${path} has no target ${missing.map((name) => `"${name}"`).join(', ')}; ${has}`);
      return selected;
    },
  };
}

/**
 * Reads a YAML file of the tool's (a configuration, known failures) and validates it
 * against its JSON Schema.
 * @param what the file's kind, for messages: `configuration file`.
 * @throws UsageError naming the file, line and column of the first problem (size, YAML
 *   syntax, an alias bomb, a schema violation), or why it cannot be read.
 */
export async function readYamlFile(path: string, schema: SchemaName, what: string): Promise<unknown> {
  // Such a file is a few lines: a huge one would parse for minutes, a device never end.
  const text = await readInput(path, `the ${what}`, MAX_CONFIG_BYTES);
  const lines = new LineCounter();
  const document = parseDocument(text, { lineCounter: lines, prettyErrors: false });
  const syntax = document.errors[0];
  const at = (offset: number) => {
    const { line, col } = lines.linePos(offset);
    return `${path}:${line}:${col}`;
  };
  if (syntax) throw new UsageError(`${at(syntax.pos[0])}: ${syntax.message.split('\n')[0]}`);
  let value: unknown;
  try {
    // Aliases that expand into each other (a billion laughs) are refused, not expanded.
    value = document.toJS({ maxAliasCount: MAX_ALIASES });
  } catch (error) {
    throw new UsageError(`${at(firstAlias(document) ?? 0)}: ${(error as Error).message.split('\n')[0]}`);
  }
  const problem = violationDetails(schema, value)[0];
  if (problem) throw new UsageError(`${at(offsetOf(document.contents, problem.pointer, problem.atKey))}: ${problem.text}`);
  return value;
}

/** Largest configuration or known-failures file read, in bytes (1 MiB). */
export const MAX_CONFIG_BYTES = 1024 * 1024;
/** Aliases a configuration may expand at most, counted as yaml counts them (a guard against alias bombs). */
const MAX_ALIASES = 100;

/** Source offset of the document's first alias (`*name`), if it has one. */
function firstAlias(document: Document): number | undefined {
  let offset: number | undefined;
  visit(document, {
    Alias(_key, node) {
      offset = node.range?.[0];
      return visit.BREAK;
    },
  });
  return offset;
}

/**
 * Source offset of the node a JSON Pointer names (of its key, with `atKey`), or of its
 * deepest existing ancestor.
 */
function offsetOf(root: unknown, pointer: string, atKey: boolean): number {
  let node = root as Node | null;
  let offset = node?.range?.[0] ?? 0;
  const segments = pointer.split('/').slice(1).map((s) => s.replace(/~1/g, '/').replace(/~0/g, '~'));
  for (const [i, segment] of segments.entries()) {
    if (isMap(node)) {
      const pair = node.items.find((item) => isPair(item) && isScalar(item.key) && String(item.key.value) === segment);
      if (!pair) break;
      const key = pair.key as Node;
      // The value's position; the key's when the name is at fault or the value is empty.
      node = atKey && i === segments.length - 1 ? key : ((pair.value as Node | null) ?? key);
      offset = node.range?.[0] ?? key.range?.[0] ?? offset;
    } else if (isSeq(node)) {
      node = (node.items[Number(segment)] as Node | undefined) ?? null;
      if (!node) break;
      offset = node.range?.[0] ?? offset;
    } else break;
  }
  return offset;
}
