/**
 * The CI gates as their pipelines run them: the action's run step under bash (its env mapped
 * from the inputs, as a runner maps them) and the GitLab component's job (its variables
 * from its inputs), each against the tool of this checkout.
 */
import { execFile } from 'node:child_process';
import { mkdtemp, readFile, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { parse as parseYaml, parseAllDocuments } from 'yaml';

export const ROOT = fileURLToPath(new URL('../../', import.meta.url));
export const KEY = 'Gate-Key_0123456789abcdefXYZ';

export interface Step {
  id?: string;
  run?: string;
  env?: Record<string, string>;
}

/** The action's inputs with their defaults (action.yml), as the runner gives them to a step. */
export async function actionSteps(): Promise<{ steps: Step[]; defaults: Record<string, string> }> {
  const action = parseYaml(await readFile(join(ROOT, 'action.yml'), 'utf8')) as { inputs: Record<string, { default?: string }>; runs: { steps: Step[] } };
  return { steps: action.runs.steps, defaults: Object.fromEntries(Object.entries(action.inputs).map(([name, input]) => [name, input.default ?? ''])) };
}

export interface Ended {
  code: number;
  stdout: string;
  stderr: string;
  outputs: Record<string, string>;
  summary: string;
}

/** Runs the action's run step under `bash -e`, as a runner does, with `inputs` over the action's defaults (and `extraEnv` in the runner's environment). */
export async function runStep(inputs: Record<string, string>, extraEnv: Record<string, string> = {}): Promise<Ended> {
  const { steps, defaults } = await actionSteps();
  const step = steps.find((candidate) => candidate.id === 'run')!;
  const dir = await mkdtemp(join(tmpdir(), 'pcs-gate-'));
  try {
    const given: Record<string, string> = { ...defaults, 'report-dir': join(dir, 'reports'), ...inputs };
    // ${{ inputs.NAME }} as the runner fills it; the Node the first step found: this one.
    const env = Object.fromEntries(
      Object.entries(step.env!).map(([name, value]) => [name, /steps\.node\.outputs\.path/.test(value) ? process.execPath : given[/inputs\.([\w-]+)/.exec(value)![1]!]!]),
    );
    const { PETSTORE_API_KEY: _none, ...base } = process.env;
    const files = { GITHUB_OUTPUT: join(dir, 'output'), GITHUB_STEP_SUMMARY: join(dir, 'summary') };
    const ended = await new Promise<{ code: number; stdout: string; stderr: string }>((resolve) =>
      execFile('bash', ['-e', '-c', step.run!], { env: { ...base, ...extraEnv, ...env, ...files, GITHUB_ACTIONS: 'true', GITHUB_ACTION_PATH: ROOT, NO_COLOR: '1' } }, (error, stdout, stderr) =>
        resolve({ code: error ? Number(error.code) : 0, stdout, stderr }),
      ),
    );
    const output = await readFile(files.GITHUB_OUTPUT, 'utf8').catch(() => '');
    const outputs = Object.fromEntries(output.split('\n').filter(Boolean).map((line) => line.split(/=(.*)/s).slice(0, 2) as [string, string]));
    return { ...ended, outputs, summary: await readFile(files.GITHUB_STEP_SUMMARY, 'utf8').catch(() => '') };
  } finally {
    await rm(dir, { recursive: true, force: true });
  }
}

/**
 * Runs the GitLab component's gate as its job does: the job's variables from `inputs` over
 * the component's defaults (`$[[ inputs.NAME ]]` filled in), then its last script line,
 * the gate, under bash, with the key in the variable the component names.
 */
export async function runComponent(inputs: Record<string, string>, extraEnv: Record<string, string> = {}): Promise<Omit<Ended, 'outputs' | 'summary'>> {
  const [spec, job] = parseAllDocuments(await readFile(join(ROOT, 'templates/petstore-conformance/template.yml'), 'utf8')).map((doc) => doc.toJS()) as [
    { spec: { inputs: Record<string, { default?: unknown }> } },
    Record<string, { variables: Record<string, string>; script: string[] }>,
  ];
  const given: Record<string, string> = { ...Object.fromEntries(Object.entries(spec.spec.inputs).map(([name, input]) => [name, String(input.default ?? '')])), ...inputs };
  const { variables, script } = job['petstore-conformance']!;
  const dir = await mkdtemp(join(tmpdir(), 'pcs-component-'));
  try {
    const env = Object.fromEntries(Object.entries(variables).map(([name, value]) => [name, String(value).replace(/\$\[\[ inputs\.([\w-]+) \]\]/g, (_all, input: string) => given[input]!)]));
    const { PETSTORE_API_KEY: _none, ...base } = process.env;
    const gate = script.at(-1)!.replace('/tmp/petstore-conformance', ROOT);
    return await new Promise((resolve) =>
      execFile('bash', ['-e', '-c', gate], { cwd: dir, env: { ...base, ...extraEnv, ...env, NO_COLOR: '1' } }, (error, stdout, stderr) => resolve({ code: error ? Number(error.code) : 0, stdout, stderr })),
    );
  } finally {
    await rm(dir, { recursive: true, force: true });
  }
}

