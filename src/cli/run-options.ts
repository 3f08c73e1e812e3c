import { resolve } from 'node:path';
import { assertSecureTransport, normalizeBaseUrl } from '../config/base-url.js';
import { configPath } from '../config/config-path.js';
import { readInput } from '../config/read-input.js';
import type { TargetConfig } from '../config/file.js';
import { CONFIGURABLE } from '../config/setting-values.js';
import { SETTING_LIST, SETTINGS, fleetValues, type SettingName, type SettingValues } from '../config/settings.js';
import { UsageError } from '../core/errors.js';
import type { RunOptions } from '../runner/run.js';
import type { FleetMember, FleetOptions } from '../runner/fleet.js';
import { parseShard, shardOf } from '../config/shard.js';

/** The `run` command's values as parsed from the command line: settings, and the flags that choose a configured target. */
export interface RunFlags extends SettingValues {
  config?: string;
  target?: string;
}

/**
 * Turns the `run` command's values, the environment and the selected configured target
 * into run options. A setting given on the command line wins over the target's, which
 * wins over the table's default (applied by the run).
 * @param explicit whether a setting was given on the command line.
 * @throws UsageError for every problem of the input: unknown target, bad URL, plain http
 *   to a remote host, missing or unreadable key, unreadable CA file, client certificate or key.
 */
export async function resolveRunOptions(
  flags: RunFlags,
  explicit: (name: SettingName) => boolean,
  env: NodeJS.ProcessEnv,
  cwd: string,
): Promise<Omit<RunOptions, 'reportDir' | 'out' | 'signal'>> {
  return optionsFor(flags, await selectedTarget(flags, cwd), explicit, env, cwd);
}

/** {@link resolveRunOptions} for a target already read from its file (or none). */
async function optionsFor(
  flags: RunFlags,
  target: TargetConfig | undefined,
  explicit: (name: SettingName) => boolean,
  env: NodeJS.ProcessEnv,
  cwd: string,
): Promise<Omit<RunOptions, 'reportDir' | 'out' | 'signal'>> {
  const options: SettingValues = {};
  for (const [name] of SETTING_LIST) {
    const configured = CONFIGURABLE.includes(name) ? target?.[name] : undefined;
    const value = explicit(name) || configured === undefined ? flags[name] : configured;
    if (value !== undefined) (options as Record<string, unknown>)[name] = value;
  }
  if (options.knownFailures !== undefined) options.knownFailures = resolve(cwd, options.knownFailures);
  if (options.traffic !== undefined) options.traffic = options.traffic.map((file) => resolve(cwd, file));
  const read = async (file: string | undefined, what: string) => (file ? await readInput(resolve(cwd, file), what) : undefined);
  const tls = {
    caPem: await read(options.caFile, 'the CA file'),
    clientCertPem: await read(options.clientCert, 'the client certificate'),
    clientKeyPem: await read(options.clientKey, 'the client key'),
  };
  if (options.baseUrl === undefined) return { ...options, ...tls, env }; // the embedded reference server
  const baseUrl = normalizeBaseUrl(options.baseUrl);
  assertSecureTransport(baseUrl, options.allowInsecureHttp ?? SETTINGS.allowInsecureHttp.default);
  return { ...options, baseUrl, ...(await apiKey(options.apiKeyFile, options.apiKeyEnv ?? SETTINGS.apiKeyEnv.default, env, cwd)), ...tls, env };
}

/**
 * The members of a fleet (`--targets`): each selected target of the configuration file,
 * resolved as `--target NAME` would be (flags override its settings), in the `--shard`
 * slice when one is given; and the fleet's own settings (declared `fleet` in the table),
 * the shard parsed.
 * @throws UsageError without a configuration file, with `--target` as well, for an
 *   unknown target or a bad shard, or for any member's problem (see resolveRunOptions).
 */
export async function resolveFleet(
  flags: RunFlags,
  explicit: (name: SettingName) => boolean,
  env: NodeJS.ProcessEnv,
  cwd: string,
): Promise<{ members: FleetMember[]; fleet: Omit<FleetOptions, 'reportDir' | 'out' | 'signal'> }> {
  if (flags.target) throw new UsageError('--target and --targets exclude each other: name the targets in --targets');
  const shard = flags.shard ? parseShard(flags.shard) : undefined;
  const path = configPath(cwd, flags.config);
  if (!path) throw new UsageError(`--targets ${flags.targets} needs a configuration file: --config FILE, or petstore-conformance.yaml here`);
  const { loadConfig } = await import('../config/file.js');
  const config = await loadConfig(path); // read once for every member
  const selected = config.select(flags.targets!);
  const names = shard ? shardOf(selected, shard) : selected;
  const members: FleetMember[] = [];
  for (const name of names) members.push({ ...(await optionsFor({ ...flags, target: name }, config.target(name), explicit, env, cwd)), targetName: name });
  return { members, fleet: { ...fleetValues(flags), shard } };
}

async function selectedTarget(flags: RunFlags, cwd: string): Promise<TargetConfig | undefined> {
  const path = configPath(cwd, flags.config);
  if (!flags.target) {
    if (flags.config) throw new UsageError('--config names targets: choose one with --target NAME');
    return undefined;
  }
  if (!path) throw new UsageError(`--target ${flags.target} needs a configuration file: --config FILE, or petstore-conformance.yaml here`);
  // Loaded only with a configuration file: YAML and the schema validators cost a start-up.
  const { loadConfig } = await import('../config/file.js');
  return (await loadConfig(path)).target(flags.target);
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
