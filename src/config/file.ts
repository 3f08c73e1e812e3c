import { readFile } from 'node:fs/promises';
import { dirname, resolve } from 'node:path';
import { isMap, isPair, isScalar, isSeq, LineCounter, parseDocument, type Node } from 'yaml';
import { SETTING_LIST, type SettingValues } from './settings.js';
import { violationDetails } from '../schema/validators.js';
import { UsageError } from '../core/errors.js';

/**
 * One named target of the configuration file: the settings declared `config` in the table
 * (schemas/config.schema.json is generated from it), paths resolved against the file's folder.
 */
export type TargetConfig = SettingValues & { baseUrl: string };

/**
 * Reads one named target from a YAML configuration file, validated against its JSON
 * Schema.
 * @throws UsageError naming the file, line and column of the first problem (YAML syntax,
 *   schema violation), or the targets that exist when `name` is not one of them.
 */
export async function loadTarget(path: string, name: string): Promise<TargetConfig> {
  let text: string;
  try {
    text = await readFile(path, 'utf8');
  } catch (error) {
    throw new UsageError(`cannot read the configuration file ${path}: ${(error as NodeJS.ErrnoException).code ?? error}`);
  }
  const lines = new LineCounter();
  const document = parseDocument(text, { lineCounter: lines, prettyErrors: false });
  const syntax = document.errors[0];
  if (syntax) {
    const { line, col } = lines.linePos(syntax.pos[0]);
    throw new UsageError(`${path}:${line}:${col}: ${syntax.message.split('\n')[0]}`);
  }
  const value = document.toJS() as { targets?: Record<string, TargetConfig> };
  const problem = violationDetails('Config', value)[0];
  if (problem) {
    const { line, col } = lines.linePos(offsetOf(document.contents, problem.pointer, problem.atKey));
    throw new UsageError(`${path}:${line}:${col}: ${problem.text}`);
  }
  const target = value.targets![name];
  if (!target) {
    throw new UsageError(`${path} has no target "${name}"; it has: ${Object.keys(value.targets!).join(', ')}`);
  }
  const resolved: Record<string, unknown> = { ...target };
  for (const [name, setting] of SETTING_LIST) {
    if (setting.type === 'path' && typeof resolved[name] === 'string') resolved[name] = resolve(dirname(path), resolved[name] as string);
  }
  return resolved as TargetConfig;
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
