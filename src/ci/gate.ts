/**
 * The CI gate (action.yml, the GitLab component templates/petstore-conformance): a
 * pipeline's inputs, given as environment variables, into one run of the tool, and its
 * outcome into the pipeline's terms. The gate fails closed: an empty base URL (what an
 * unset repository variable gives) is an error unless a self-test is asked for, and a
 * target that could not be assessed (exit 3) fails the step unless the pipeline opts out,
 * when its warning names the cause.
 */
import { spawn } from 'node:child_process';
import { appendFile, readFile, rm } from 'node:fs/promises';
import { join } from 'node:path';
import { parse } from 'shell-quote';
import { packageRoot } from '../core/package-info.js';
import { EXIT } from '../report/verdict.js';

/** The gate's inputs, as the pipeline gives them (`PCS_*` environment variables; empty: not given). */
export interface GateInputs {
  baseUrl: string;
  /** `true`: run the embedded reference server when no base URL is given (the tool's own check). */
  selfTest: boolean;
  profile: string;
  /** The variable holding the key (`--api-key-env`); empty: the tool's default, PETSTORE_API_KEY. */
  apiKeyEnv: string;
  knownFailures: string;
  strict: boolean;
  /** `--min-must-checks`: a number, `all` or `profile`; empty: none. */
  minMustChecks: string;
  /** More arguments, as shell words (`-H 'X-Tenant: blue' --rate-limit 20`). */
  args: string;
  reportDir: string;
  /** Whether exit 3 fails the step (the default); `false` makes it a warning that names the cause. */
  notAssessableFails: boolean;
  /** The reports' artifact name; empty: derived from the target (artifactName). */
  artifactName: string;
  /** The exit code that marks a warning: 0 (GitHub: the step passes, with an annotation) or what the pipeline allows to fail (GitLab's allow_failure). */
  warnExit: number;
}

/** A gate input the pipeline got wrong: exit 2, one line. */
export class GateInputError extends Error {}

/** The inputs from the environment the action or the component sets. */
export function gateInputs(env: NodeJS.ProcessEnv): GateInputs {
  const flag = (name: string, fallback: boolean) => {
    const value = (env[name] ?? '').trim();
    if (value === '') return fallback;
    if (value !== 'true' && value !== 'false') throw new GateInputError(`${inputName(name)} must be true or false, not ${JSON.stringify(value)}`);
    return value === 'true';
  };
  const text = (name: string) => (env[name] ?? '').trim();
  return {
    baseUrl: text('PCS_BASE_URL'),
    selfTest: flag('PCS_SELF_TEST', false),
    profile: text('PCS_PROFILE'),
    apiKeyEnv: text('PCS_API_KEY_ENV'),
    knownFailures: text('PCS_KNOWN_FAILURES'),
    strict: flag('PCS_STRICT', false),
    minMustChecks: text('PCS_MIN_MUST_CHECKS'),
    args: env.PCS_ARGS ?? '',
    reportDir: text('PCS_REPORT_DIR') || 'reports/conformance',
    notAssessableFails: flag('PCS_NOT_ASSESSABLE_FAILS', true),
    artifactName: text('PCS_ARTIFACT_NAME'),
    warnExit: Number(text('PCS_WARN_EXIT') || '0'),
  };
}

/** `PCS_NOT_ASSESSABLE_FAILS` → `not-assessable-fails`: the input's name as the pipeline spells it. */
const inputName = (variable: string) => variable.replace(/^PCS_/, '').toLowerCase().replace(/_/g, '-');

/**
 * The words of `args`, as a POSIX shell splits them (shell-quote): quotes keep a word
 * whole, `$NAME` stays as written (the pipeline expanded what it meant to).
 * @throws GateInputError for what is no word: an operator (`;`, `|`, `&&`), a glob or a comment.
 */
export function shellWords(args: string): string[] {
  return parse(args, (name) => `$${name}`).map((word) => {
    if (typeof word === 'string') return word;
    const what = 'op' in word ? (word.op === 'glob' ? `the pattern ${(word as { pattern: string }).pattern}` : `the operator ${word.op}`) : 'a comment';
    throw new GateInputError(`args holds ${what}: give the tool's arguments alone, quoted as in a shell (-H 'X-Tenant: blue')`);
  });
}

/**
 * The arguments of `petstore-conformance run` for these inputs. The gate requires what it
 * gates: unless the step names the read-only profile itself (`profile: read-only`, or
 * `--profile read-only` in args), every must check must be judged (`--min-must-checks all`),
 * so a profile taken by default (read-only, for any target off loopback) never passes a
 * gate with the creates untested; named, the read-only run's verdict stands (its notice
 * says what it left out). A `min-must-checks` given, in the input or in args, stands.
 * @throws GateInputError for an empty base URL without `self-test: true` (the gate would
 *   pass on the embedded server, checking nothing), for both given, and for args that are
 *   not words.
 */
export function gateArguments(inputs: GateInputs): string[] {
  if (!inputs.baseUrl && !inputs.selfTest) {
    throw new GateInputError('base-url is empty: nothing to check (an unset variable?). Give the target\'s base URL, or self-test: true to check the tool on its embedded reference server');
  }
  if (inputs.baseUrl && inputs.selfTest) throw new GateInputError('base-url and self-test: true exclude each other: a self-test checks the embedded reference server');
  const args = shellWords(inputs.args);
  const minimum = inputs.minMustChecks || (flagIn(args, '--min-must-checks') !== undefined || readOnlyNamed(inputs.profile, args) ? '' : 'all');
  return [
    'run',
    '--report-dir', inputs.reportDir,
    ...(inputs.baseUrl ? ['--base-url', inputs.baseUrl] : []),
    ...(inputs.profile ? ['--profile', inputs.profile] : []),
    ...(inputs.apiKeyEnv ? ['--api-key-env', inputs.apiKeyEnv] : []),
    ...(inputs.knownFailures ? ['--known-failures', inputs.knownFailures] : []),
    ...(inputs.strict ? ['--strict'] : []),
    ...(minimum ? ['--min-must-checks', minimum] : []),
    ...args,
  ];
}

/** Whether the step names the read-only profile itself: its input, or `--profile read-only` in args (the later wins, as the tool reads them). */
function readOnlyNamed(profile: string, args: readonly string[]): boolean {
  return (flagIn(args, '--profile') ?? profile) === 'read-only';
}

/** The value the last `flag` of `args` gives (`--flag value` or `--flag=value`); undefined when absent. */
function flagIn(args: readonly string[], flag: string): string | undefined {
  let value: string | undefined;
  args.forEach((word, i) => {
    if (word === flag) value = args[i + 1] ?? '';
    else if (word.startsWith(`${flag}=`)) value = word.slice(flag.length + 1);
  });
  return value;
}

/**
 * The reports' artifact name: the one given, else `conformance-` and the target (host,
 * port and path, in the characters an artifact name may hold), so that two uses in one
 * workflow keep both; `conformance-self-test` for the embedded server.
 */
export function artifactName(inputs: Pick<GateInputs, 'artifactName' | 'baseUrl'>): string {
  if (inputs.artifactName) return inputs.artifactName;
  if (!inputs.baseUrl) return 'conformance-self-test';
  const url = URL.canParse(inputs.baseUrl) ? new URL(inputs.baseUrl) : undefined;
  const target = url ? `${url.host}${url.pathname}` : inputs.baseUrl;
  return `conformance-${target.replace(/[^A-Za-z0-9._-]+/g, '-').replace(/^-+|-+$/g, '')}`;
}

/** What the step ends with: its exit code, and a line for the pipeline when there is one to say. */
export interface GateOutcome {
  exitCode: number;
  annotation?: { level: 'error' | 'warning' | 'notice'; title: string; message: string };
}

/** What the gate reads of report.json (absent when no report was written). */
export type GateReport = { verdict?: string; verdictReason?: string; coverage?: { must: number; ran: number }; settings?: { profile?: string } };

/**
 * The step's outcome from the tool's exit code: 0, 1 and 2 as they are; 3 (not assessable)
 * fails the step, or is a warning naming the cause when the pipeline opted out. A read-only
 * run that passes says what it left out, in one notice: `read-only: 23 of 54 must checks
 * assessed; creates not tested`.
 * @param report report.json's verdict, its reason (why the target could not be assessed)
 *   and coverage, when written.
 */
export function gateOutcome(code: number, report: GateReport | undefined, inputs: Pick<GateInputs, 'notAssessableFails' | 'warnExit'>): GateOutcome {
  if (code === EXIT.conformant && report?.settings?.profile === 'read-only' && report.coverage) {
    const { ran, must } = report.coverage;
    return { exitCode: code, annotation: { level: 'notice', title: 'Read-only', message: `read-only: ${ran} of ${must} must checks assessed; creates not tested` } };
  }
  if (code !== EXIT.error) return { exitCode: code };
  const message = `the target could not be assessed (exit 3): ${report?.verdictReason ?? 'the reports say why'}`;
  if (inputs.notAssessableFails) return { exitCode: EXIT.error, annotation: { level: 'error', title: 'Not assessable', message } };
  return { exitCode: inputs.warnExit, annotation: { level: 'warning', title: 'Not assessable', message: `${message} (not-assessable-fails: false)` } };
}

/** Where the gate writes: its own lines, and the pipeline's files (GitHub's step outputs and job summary). */
export interface GateIo {
  err: NodeJS.WritableStream;
  env: NodeJS.ProcessEnv;
}

/**
 * Runs the gate: the tool with the inputs' arguments (its output passes through), then the
 * step's outputs (exit-code, verdict, artifact-name), the job summary and the outcome.
 * @returns the step's exit code.
 */
export async function runGate({ err, env }: GateIo): Promise<number> {
  const github = env.GITHUB_ACTIONS === 'true';
  const say = ({ level, title, message }: NonNullable<GateOutcome['annotation']>) =>
    err.write(github ? `::${level} title=${title}::${message}\n` : `petstore-conformance gate: ${level}: ${message}\n`);
  let inputs: GateInputs;
  let argv: string[];
  try {
    inputs = gateInputs(env);
    argv = gateArguments(inputs);
  } catch (error) {
    if (!(error instanceof GateInputError)) throw error;
    say({ level: 'error', title: 'Gate input', message: error.message });
    return EXIT.usage;
  }
  // The verdict is read only from a report this run writes: one left in the folder by an
  // earlier use would otherwise stand for a run that ended before writing its own.
  await Promise.all(['report.json', 'summary.md'].map((file) => rm(join(inputs.reportDir, file), { force: true })));
  const code = await runTool(argv, env);
  const report = await readFile(join(inputs.reportDir, 'report.json'), 'utf8').then((text) => JSON.parse(text) as GateReport, () => undefined);
  const outcome = gateOutcome(code, report, inputs);
  if (env.GITHUB_OUTPUT) await appendFile(env.GITHUB_OUTPUT, `exit-code=${code}\nverdict=${report?.verdict ?? 'error'}\nartifact-name=${artifactName(inputs)}\n`);
  const summary = await readFile(join(inputs.reportDir, 'summary.md'), 'utf8').catch(() => undefined);
  // The job summary says what a passing read-only gate left out, as its notice does.
  const notice = outcome.annotation?.level === 'notice' ? `\n> **${outcome.annotation.message}**\n` : '';
  if (env.GITHUB_STEP_SUMMARY && summary !== undefined) await appendFile(env.GITHUB_STEP_SUMMARY, summary + notice);
  if (outcome.annotation) say(outcome.annotation);
  return outcome.exitCode;
}

/** The tool's exit code, run by this very Node (the gate found one new enough), its output passed through. */
function runTool(argv: string[], env: NodeJS.ProcessEnv): Promise<number> {
  const child = spawn(process.execPath, [join(packageRoot, 'bin', 'petstore-conformance.js'), ...argv], { env, stdio: 'inherit' });
  return new Promise((resolve) => {
    child.on('error', () => resolve(EXIT.error));
    child.on('close', (code) => resolve(code ?? EXIT.error));
  });
}
