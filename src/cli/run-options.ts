import { readFile } from 'node:fs/promises';
import { resolve } from 'node:path';
import { assertSecureTransport, normalizeBaseUrl } from '../config/base-url.js';
import { configPath } from '../config/config-path.js';
import type { TargetConfig } from '../config/file.js';
import { UsageError } from '../core/errors.js';
import type { Profile } from '../config/settings.js';
import type { Format } from '../report/formats.js';
import type { RunOptions } from '../runner/run.js';
import { KEY_VARIABLE } from '../secrets/redactor.js';

/** The `run` command's flags as commander parsed them (defaults filled in). */
export interface RunFlags {
  baseUrl?: string;
  apiKeyEnv: string;
  apiKeyFile?: string;
  config?: string;
  target?: string;
  profile?: Profile;
  rateLimit?: number;
  maxRequests?: number;
  maxWrites?: number;
  deadline?: number;
  allowInsecureHttp?: boolean;
  caFile?: string;
  reportDir?: string;
  format: Format[];
  timeout: number;
  connections: number;
  checks?: string;
  seed?: number;
  numRuns?: number;
  parallelCreates: number;
  shrinkBudget: number;
  concurrency: number;
  color: boolean;
}

/** Settings a configured target may give, by the flag that overrides each. */
const FROM_TARGET = {
  baseUrl: 'baseUrl',
  apiKeyEnv: 'apiKeyEnv',
  apiKeyFile: 'apiKeyFile',
  profile: 'profile',
  rateLimit: 'rateLimit',
  maxRequests: 'maxRequests',
  maxWrites: 'maxWrites',
  deadline: 'deadlineSeconds',
  timeout: 'timeoutMs',
  connections: 'connections',
  allowInsecureHttp: 'allowInsecureHttp',
  caFile: 'caFile',
} as const satisfies Partial<Record<keyof RunFlags, keyof TargetConfig>>;

/**
 * Turns the `run` command's flags, the environment and the selected configured target
 * into run options. A flag given on the command line wins over the target's setting,
 * which wins over the flag's default.
 * @param explicit whether a flag was given on the command line (not defaulted).
 * @throws UsageError for every problem of the input: unknown target, bad URL, plain http
 *   to a remote host, missing or unreadable key, unreadable CA file.
 */
export async function resolveRunOptions(
  flags: RunFlags,
  explicit: (flag: keyof RunFlags) => boolean,
  env: NodeJS.ProcessEnv,
  cwd: string,
): Promise<Omit<RunOptions, 'reportDir' | 'out' | 'signal'>> {
  const target = await selectedTarget(flags, cwd);
  const pick = <K extends keyof typeof FROM_TARGET>(flag: K): RunFlags[K] =>
    explicit(flag) || target?.[FROM_TARGET[flag]] === undefined ? flags[flag] : (target[FROM_TARGET[flag]] as unknown as RunFlags[K]);

  const options: Omit<RunOptions, 'reportDir' | 'out' | 'signal'> = {
    timeoutMs: pick('timeout'),
    connections: pick('connections'),
    checkFilter: flags.checks,
    seed: flags.seed,
    numRuns: flags.numRuns,
    parallelCreates: flags.parallelCreates,
    shrinkBudget: flags.shrinkBudget,
    concurrency: flags.concurrency,
    profile: pick('profile'),
    rateLimit: pick('rateLimit'),
    maxRequests: pick('maxRequests'),
    maxWrites: pick('maxWrites'),
    deadlineMs: pick('deadline') === undefined ? undefined : pick('deadline')! * 1000,
  };
  const baseUrlText = pick('baseUrl');
  if (baseUrlText === undefined) return options; // the embedded reference server
  const baseUrl = normalizeBaseUrl(baseUrlText);
  assertSecureTransport(baseUrl, pick('allowInsecureHttp') ?? false);
  const caFile = pick('caFile');
  return {
    ...options,
    baseUrl,
    ...(await apiKey(pick('apiKeyFile'), pick('apiKeyEnv') ?? KEY_VARIABLE, env, cwd)),
    ...(caFile ? { caPem: await readInput(resolve(cwd, caFile), 'the CA file') } : {}),
  };
}

async function selectedTarget(flags: RunFlags, cwd: string): Promise<TargetConfig | undefined> {
  const path = configPath(cwd, flags.config);
  if (!flags.target) {
    if (flags.config) throw new UsageError('--config names targets: choose one with --target NAME');
    return undefined;
  }
  if (!path) throw new UsageError(`--target ${flags.target} needs a configuration file: --config FILE, or petstore-conformance.yaml here`);
  // Loaded only with a configuration file: YAML and the schema validators cost a start-up.
  const { loadTarget } = await import('../config/file.js');
  return loadTarget(path, flags.target);
}

/** The key, from a file when one is named, else from an environment variable, and where it came from. */
async function apiKey(file: string | undefined, variable: string, env: NodeJS.ProcessEnv, cwd: string): Promise<{ apiKey: string; keySource: string }> {
  if (file) {
    const key = (await readInput(resolve(cwd, file), 'the API key file')).trim();
    if (!key) throw new UsageError(`the API key file ${file} is empty`);
    return { apiKey: key, keySource: `the API key file ${file}` };
  }
  const key = env[variable];
  if (!key) {
    throw new UsageError(`the API key is missing: set the environment variable ${variable} (or name another with --api-key-env, or use --api-key-file)`);
  }
  return { apiKey: key, keySource: `the environment variable ${variable}` };
}

/** A file's text, or a UsageError that names the file (never its content). */
async function readInput(path: string, what: string): Promise<string> {
  try {
    return await readFile(path, 'utf8');
  } catch (error) {
    throw new UsageError(`cannot read ${what} ${path}: ${(error as NodeJS.ErrnoException).code ?? error}`);
  }
}
