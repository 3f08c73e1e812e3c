/**
 * Where a configuration file's problem is (src/config/file.ts): the file, line and column
 * of the first problem, exactly, so an editor can jump to it.
 */
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, expect, test } from 'vitest';
import { loadConfig } from '../../src/config/file.js';

const dir = mkdtempSync(join(tmpdir(), 'pcs-config-file-'));
afterAll(() => rmSync(dir, { recursive: true, force: true }));
let files = 0;
/** The message loadConfig refuses `text` with, the file's path shown as FILE. */
async function refusal(text: string): Promise<string> {
  const path = join(dir, `config-${++files}.yaml`);
  writeFileSync(path, text);
  return loadConfig(path).then(
    () => 'accepted',
    (error: Error) => error.message.replace(path, 'FILE'),
  );
}

test.each([
  ['a quote left open: where the closing quote is missing (its start, not its end)', 'targets:\n  staging:\n    baseUrl: "http://x/v1\n', 'FILE:4:1: Missing closing "quote'],
  ['a flow sequence not closed: at its first problem', 'targets:\n  a: [1, 2\n  b: 3\n', /^FILE:3:3: Flow sequence in block collection must be sufficiently indented and end with a \]/],
])('%s', async (_d, text, message) => expect(await refusal(text)).toMatch(message));

test('a value the schema refuses: at that value, under its own target, not the first target holding the same key', async () => {
  const text = 'targets:\n  a:\n    baseUrl: http://a/v1\n    connections: 2\n  b:\n    baseUrl: http://b/v1\n    connections: 0\n';
  expect(await refusal(text)).toBe('FILE:7:18: /targets/b/connections must be >= 1');
});

test('near miss: the same file with its quote closed is read', async () => {
  expect(await refusal('targets:\n  staging:\n    baseUrl: "http://x/v1"\n')).toBe('accepted');
});

test('a selection of targets: every name given, in its order, once; a name it lacks is refused, and only then', async () => {
  const path = join(dir, `config-${++files}.yaml`);
  writeFileSync(path, 'targets:\n  a:\n    baseUrl: http://a/v1\n  b:\n    baseUrl: http://b/v1\n');
  const config = await loadConfig(path);
  expect(config.select('b,a,b')).toEqual(['b', 'a']);
  expect(config.select('all')).toEqual(['a', 'b']);
  expect(() => config.select('a,c')).toThrow(`${path} has no target "c"; it has: a, b`);
});

test('a file that cannot be read is named as the configuration file it was to be', async () => {
  await expect(loadConfig(join(dir, 'absent.yaml'))).rejects.toThrow(`cannot read the configuration file ${join(dir, 'absent.yaml')}: ENOENT`);
});
