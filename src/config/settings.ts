// Imported so that the `declare module 'vitest'` below augments vitest's types, never shadows them.
import type {} from 'vitest';
import { KEY_VARIABLE } from '../secrets/redactor.js';
import { isLoopback } from './base-url.js';
import type { ExtraHeader } from './extra-headers.js';
import type { ProxyEnvironment } from './proxy.js';

/** `Name: value`: a field name is a token, its value visible ASCII with inner spaces (RFC 9110 §5.1, §5.5). */
const HEADER_PATTERN = "^[!#$%&'*+.^_`|~0-9A-Za-z-]+:[ \\t]*[!-~]([ \\t!-~]*[!-~])?[ \\t]*$";
/** `Name=VARIABLE`: a field name and an environment variable's name. */
const HEADER_ENV_PATTERN = "^[!#$%&'*+.^_`|~0-9A-Za-z-]+=[A-Za-z_][A-Za-z0-9_]*$";

/**
 * What a run may do to its target. `read-only` sends nothing that could create a
 * category, even on a server that ignores authentication and validation.
 */
export type Profile = 'full' | 'read-only';

/** The report files a run can write. */
export const ALL_FORMATS = ['json', 'junit', 'html', 'md', 'har'] as const;
export type Format = (typeof ALL_FORMATS)[number];

/** What every declaration says, whatever its type. */
interface Declared {
  /** What the setting means: the flag's help text and the configuration schema's description. */
  help: string;
  /** The command-line flag, e.g. `--rate-limit <per-second>`; absent: not on the command line. */
  flag?: string;
  /** A one-letter flag for the same setting, as the neighbouring tools spell it (curl's `-H`). */
  short?: string;
  /** Another long flag for the same setting, as the neighbouring tools spell it (Schemathesis's `--url`). */
  alias?: string;
  /** Whether a configured target may set it, under the setting's own name. */
  config?: true;
  /** Whether report.json records it under `settings`. */
  reported?: true;
  /** Whether it changes what is sent or judged: replay commands reproduce it (config/replay.ts). */
  replays?: true;
  /** Whether a fleet (`run --targets`) takes it once for the whole fleet: `fleetValues` hands it to runFleet. */
  fleet?: true;
}

/** A number within bounds, in a unit. */
export interface NumberSetting extends Declared {
  type: 'integer' | 'number';
  /** The unit of the value, as the flag, the configuration and the code all take it. */
  unit: 'ms' | 's' | 'bytes' | 'requests' | 'requests/s' | 'inputs' | 'runs' | 'checks' | 'targets';
  /** Smallest value accepted. */
  min: number;
  /** Largest value accepted: every number has an upper bound (bad input is exit 2, never a hang). */
  max: number;
  /** Words accepted in place of a number, each a count the run works out (`all`: every must check). */
  words?: readonly string[];
  default?: number;
}

/** Text, optionally constrained by a pattern. */
export interface TextSetting extends Declared {
  type: 'string' | 'url' | 'path' | 'regex';
  /** For `string`: the pattern the text must match. */
  pattern?: string;
  default?: string;
}

/** One of a few words. */
export interface ChoiceSetting extends Declared {
  type: 'choice';
  choices: readonly string[];
  default?: string;
}

/** Some of a few words, comma-separated on the command line. */
export interface ListSetting extends Declared {
  type: 'list';
  choices: readonly string[];
  default: readonly string[];
}

/**
 * Text that may be given more than once: the flag repeats, the configuration takes a list.
 * Every item must match the pattern.
 */
export interface RepeatedSetting extends Declared {
  type: 'texts';
  pattern: string;
  default?: undefined;
}

/** On or off: a flag without an argument (`--no-…` for a default of true). */
export interface SwitchSetting extends Declared {
  type: 'boolean';
  default?: boolean;
}

/** The declaration of one setting. */
export type Setting = NumberSetting | TextSetting | ChoiceSetting | ListSetting | RepeatedSetting | SwitchSetting;

/**
 * Every setting of a run, declared once. The name is the option of the programmatic API,
 * the key of a configured target and the key under `settings` in report.json. The
 * command line (flags, help, bounds), the configuration schema, the run's resolved
 * settings and the report derive from this table: a new setting is one entry here and
 * its use.
 */
export const SETTINGS = {
  baseUrl: { type: 'url', flag: '--base-url <url>', short: '-u', alias: '--url', config: true, help: 'the target base URL, ending with /v1; absent: an embedded reference server' },
  apiKeyEnv: {
    type: 'string',
    pattern: '^[A-Za-z_][A-Za-z0-9_]*$',
    default: KEY_VARIABLE,
    flag: '--api-key-env <name>', replays: true, reported: true,
    config: true,
    help: 'environment variable holding the API key',
  },
  apiKeyFile: { type: 'path', flag: '--api-key-file <file>', config: true, help: 'file holding the API key, instead of the environment' },
  profile: {
    type: 'choice',
    choices: ['full', 'read-only'],
    flag: '--profile <profile>',
    config: true,
    reported: true, replays: true,
    help: 'full, or read-only: nothing that could create a category (default: full on loopback, read-only elsewhere)',
  },
  rateLimit: { type: 'number', unit: 'requests/s', min: 0.01, max: 10_000, flag: '--rate-limit <per-second>', config: true, reported: true, help: 'requests per second at most, shared by every check' },
  maxRequests: { type: 'integer', unit: 'requests', min: 1, max: 1_000_000, flag: '--max-requests <n>', config: true, reported: true, replays: true, help: 'requests the run may send at most' },
  maxWrites: { type: 'integer', unit: 'requests', min: 0, max: 1_000_000, flag: '--max-writes <n>', config: true, reported: true, replays: true, help: 'requests that could write the run may send at most' },
  deadlineSeconds: { type: 'number', unit: 's', min: 1, max: 86_400, flag: '--deadline <seconds>', config: true, reported: true, fleet: true, help: 'wall time the whole run may take: no request starts after it (exit 3)' },
  timeoutMs: { type: 'integer', unit: 'ms', min: 10, max: 600_000, default: 10_000, flag: '--timeout <ms>', config: true, reported: true, replays: true, help: 'deadline of one request: connect, headers and body' },
  patienceSeconds: {
    type: 'number',
    unit: 's',
    min: 1,
    max: 3_600,
    default: 30,
    flag: '--patience <seconds>',
    config: true,
    reported: true, replays: true,
    help: 'how long the run waits on a target that refuses every request (429, or 503 with Retry-After) before it stops',
  },
  // 48: against a target 30 ms away, 16 connections made a run of some 440 requests wait 28 round trips for connections alone (issue 35).
  connections: {
    type: 'integer',
    unit: 'requests',
    min: 1,
    max: 256,
    default: 48,
    flag: '--connections <n>',
    config: true,
    reported: true,
    replays: true,
    help: "keep-alive connections to the target, and so requests in flight, at most (a property's inputs included); fewer when the target resets those beyond its own limit. Default 48; 4 for a read-only run of a target that is not on loopback; never more than --rate-limit needs",
  },
  maxResponseBytes: {
    type: 'integer',
    unit: 'bytes',
    min: 1024,
    max: 256 * 1024 * 1024,
    default: 16 * 1024 * 1024,
    flag: '--max-response-bytes <bytes>',
    config: true,
    reported: true, replays: true,
    help: 'largest list body read (any other answer: 8 times the body sent, plus 64 KiB); a check whose answer is larger is not judged (error)',
  },
  allowInsecureHttp: { type: 'boolean', default: false, flag: '--allow-insecure-http', config: true, help: 'allow plain http to a host that is not this machine' },
  allowKeyInUrl: {
    type: 'boolean',
    default: false,
    flag: '--allow-key-in-url',
    config: true,
    reported: true,
    replays: true,
    help: "send the key in a query parameter to a target that is not this machine (auth-key-in-query): servers, gateways and CDNs write URLs into their access logs, so by default that check does not run off loopback",
  },
  insecure: {
    type: 'boolean',
    default: false,
    flag: '--insecure',
    short: '-k',
    config: true,
    reported: true,
    replays: true,
    help: "do not verify the target's TLS certificate (curl's -k): the headline, report.json and summary.md say so; NODE_TLS_REJECT_UNAUTHORIZED=0 counts as this. --ca-file trusts a private CA instead",
  },
  strict: { type: 'boolean', default: false, flag: '--strict', config: true, reported: true, replays: true, help: 'should failures (HTTP standards the spec does not state) count for the verdict, as must failures do' },
  caFile: { type: 'path', flag: '--ca-file <file>', config: true, help: 'PEM file of extra trusted CA certificates (NODE_EXTRA_CA_CERTS works too)' },
  clientCert: { type: 'path', flag: '--client-cert <file>', config: true, help: 'PEM certificate the client presents for mutual TLS (with --client-key)' },
  clientKey: { type: 'path', flag: '--client-key <file>', config: true, help: 'PEM private key of --client-cert (unencrypted; never printed)' },
  headers: {
    type: 'texts',
    pattern: HEADER_PATTERN,
    flag: '--header <name: value>', short: '-H', replays: true, reported: true,
    config: true,
    help: 'a header sent with every request, e.g. "X-Tenant: blue" (repeatable); shown as given in reports and replays',
  },
  headerEnv: {
    type: 'texts',
    pattern: HEADER_ENV_PATTERN,
    flag: '--header-env <name=VARIABLE>', replays: true, reported: true,
    config: true,
    help: 'a header sent with every request, its value read from an environment variable and redacted like the key, e.g. X-Gateway-Key=GATEWAY_KEY (repeatable)',
  },
  knownFailures: {
    type: 'path',
    flag: '--known-failures <file>',
    config: true,
    reported: true, replays: true,
    help: 'YAML list of accepted failures (check, reason, expires): an unexpired one does not fail the gate, an expired one does',
  },
  traffic: {
    type: 'texts',
    pattern: '^.+$',
    flag: '--traffic <file.har>',
    config: true,
    reported: true,
    help: "a HAR capture of the target's own traffic, judged with the run: one report, coverage the union of both (repeatable; nothing of it is sent)",
  },
  keepReports: {
    type: 'integer',
    unit: 'runs',
    min: 1,
    max: 10_000,
    default: 10,
    flag: '--keep-reports <n>',
    help: 'runs kept in reports/ when the reports go to the default folder (reports/<timestamp>): the oldest beyond are removed; reports/latest points at the newest',
  },
  minMustChecks: {
    type: 'integer',
    unit: 'checks',
    min: 1,
    max: 1_000,
    words: ['all', 'profile'],
    flag: '--min-must-checks <n>',
    config: true,
    reported: true,
    help:
      'fewest must checks that must run, or be judged on captured traffic, for a verdict: fewer is exit 3, naming those that did (a gate on coverage for audits); ' +
      '`all`: every must check of the suite (a staging gate that must judge everything: with --profile full), `profile`: every one the profile reaches',
  },
  acceptTruncated: {
    type: 'boolean',
    default: false,
    flag: '--accept-truncated',
    config: true,
    reported: true,
    help: 'a capture that ends before its JSON does (a recorder killed, a size limit) is judged up to its last whole entry, and by default the verdict is then exit 3; with this flag the verdict stands on what the capture holds',
  },
  checkFilter: { type: 'regex', flag: '--checks <regex>', reported: true, replays: true, help: 'run only the checks whose id matches; the others are reported skipped' },
  seed: { type: 'integer', unit: 'inputs', min: 0, max: 2 ** 31 - 1, flag: '--seed <n>', reported: true, replays: true, help: 'seed of every generated input; the same seed replays the same requests (default: a fresh one)' },
  numRuns: { type: 'integer', unit: 'runs', min: 1, max: 100_000, flag: '--num-runs <n>', reported: true, replays: true, help: 'runs of every property-based check (default: each its own)' },
  maxIdCreates: {
    type: 'integer',
    unit: 'requests',
    min: 0,
    max: 1_000_000,
    default: 2_000,
    flag: '--max-id-creates <n>',
    config: true,
    reported: true,
    replays: true,
    help: 'creates create-ids-unique-at-scale may add, when the ids look drawn at random, to see a small id space repeat (0: none)',
  },
  parallelCreates: { type: 'integer', unit: 'requests', min: 1, max: 1_000, default: 16, flag: '--parallel-creates <n>', reported: true, replays: true, help: 'creates the concurrency check sends at once' },
  concurrency: {
    type: 'integer',
    unit: 'checks',
    min: 1,
    max: 256,
    default: 16,
    flag: '--concurrency <n>',
    reported: true, replays: true,
    help: 'independent checks in flight at once (a property sends its inputs on as many connections as --connections allows)',
  },
  shrinkBudget: { type: 'integer', unit: 'requests', min: 0, max: 1_000_000, default: 500, flag: '--shrink-budget <requests>', reported: true, replays: true, help: 'requests a failing property may spend shrinking its counterexample' },
  targets: {
    type: 'string',
    pattern: '^(all|[A-Za-z0-9_.-]+(,[A-Za-z0-9_.-]+)*)$',
    flag: '--targets <all|name,name…>',
    help: 'check several configured targets in one run (a fleet): their reports go to <report-dir>/<name>/, beside fleet.json, summary.md and junit.xml',
  },
  targetConcurrency: {
    type: 'integer',
    unit: 'targets',
    min: 1,
    max: 64,
    default: 4,
    flag: '--target-concurrency <n>',
    fleet: true,
    help: "a fleet's targets checked at once, each lane of targets in one suite worker",
  },
  shard: {
    type: 'string',
    pattern: '^[1-9][0-9]*/[1-9][0-9]*$',
    flag: '--shard <k/n>',
    fleet: true,
    help: 'with --targets: check only the k-th of n slices of the selected targets, sorted by name (join the parts with merge)',
  },
  reportDir: { type: 'path', flag: '--report-dir <dir>', help: 'directory for the report files (default: reports/<timestamp>, linked as reports/latest)' },
  formats: { type: 'list', choices: ALL_FORMATS, default: ALL_FORMATS, flag: '--format <formats>', help: `report files to write, comma-separated: ${ALL_FORMATS.join(', ')}` },
  color: { type: 'boolean', flag: '--no-color', help: 'plain console output (also NO_COLOR=1); default: colour on a terminal' },
  quiet: { type: 'boolean', default: false, flag: '--quiet', help: 'print only the verdict (and the gate) and the paths of the reports' },
  verbose: { type: 'boolean', default: false, flag: '--verbose', help: 'print every exchange of every check under its line' },
} as const satisfies Record<string, Setting>;

export type SettingName = keyof typeof SETTINGS;

/** The value type a declaration describes. */
type ValueOf<S> = S extends { type: 'integer' | 'number'; words: readonly (infer W)[] }
  ? number | W
  : S extends { type: 'integer' | 'number' }
  ? number
  : S extends { type: 'boolean' }
    ? boolean
    : S extends { type: 'texts' }
      ? string[]
    : S extends { type: 'list'; choices: readonly (infer C)[] }
      ? C[]
      : S extends { type: 'choice'; choices: readonly (infer C)[] }
        ? C
        : string;

/** Every setting's value, each optional: what a caller of the run may give. */
export type SettingValues = { -readonly [K in SettingName]?: ValueOf<(typeof SETTINGS)[K]> };

/** The settings that have a default. */
type Defaulted = { [K in SettingName]: (typeof SETTINGS)[K] extends { default: unknown } ? K : never }[SettingName];

/** Every setting's value with the defaults applied: what a run works with. */
export type ResolvedSettings = SettingValues & { -readonly [K in Defaulted]: ValueOf<(typeof SETTINGS)[K]> };

/** The declarations as a plain record, for code that walks the table. */
export const SETTING_LIST = Object.entries(SETTINGS) as Array<[SettingName, Setting]>;

/** The values with every default applied. */
export function withDefaults(values: SettingValues): ResolvedSettings {
  const resolved: Record<string, unknown> = {};
  for (const [name, setting] of SETTING_LIST) {
    const value = values[name] ?? setting.default;
    if (value !== undefined) resolved[name] = Array.isArray(value) ? [...value] : value;
  }
  return resolved as ResolvedSettings;
}

/** The values of the settings a declaration marks, when they have one. */
function declaredValues(values: SettingValues, marked: (setting: Setting) => boolean | undefined): Partial<SettingValues> {
  return Object.fromEntries(SETTING_LIST.filter(([name, setting]) => marked(setting) && values[name] !== undefined).map(([name]) => [name, values[name]]));
}

/** The values report.json records: the settings declared `reported`, when they have one. */
export function reportedValues(values: SettingValues): Partial<SettingValues> {
  return declaredValues(values, (setting) => setting.reported);
}

/** The settings a fleet takes once for all its targets (declared `fleet`). */
export type FleetSettingName = { [K in SettingName]: (typeof SETTINGS)[K] extends { fleet: true } ? K : never }[SettingName];

/** The values of the settings declared `fleet`, when they have one. */
export function fleetValues(values: SettingValues): Pick<SettingValues, FleetSettingName> {
  return declaredValues(values, (setting) => setting.fleet);
}

/**
 * Everything a run needs to know about its target and limits: the resolved settings and
 * what the runner derives. The runner builds it and hands it to the suite's worker through
 * vitest's `provide` (`runs`); the suite registers each target's checks with its settings.
 */
export interface RunSettings extends ResolvedSettings {
  /** The target's base URL, ending with `/v1`, no trailing slash (spec 9/R2). */
  baseUrl: string;
  /** The API key (secret: shown only as a placeholder). */
  apiKey: string;
  /** The target's name in the configuration file (a fleet's targets always have one). */
  targetName?: string;
  /** Where the key came from, in words (`the environment variable PETSTORE_API_KEY`), for the preflight's diagnosis. */
  keySource?: string;
  /** `embedded` when the runner started its own reference server for this run; `traffic` when nothing is sent and captured traffic is judged (judge, proxy). */
  targetKind: 'embedded' | 'external' | 'traffic';
  /** The run's seed: every generated input and random choice derives from it. */
  seed: number;
  /** Short tag derived from the seed, put in the names of created categories to find them. */
  runId: string;
  /**
   * The run's own name on the channels between its threads (its stop, its progress), unique
   * in the process: never derived from the seed, so that runs with one seed at once (a
   * library's caller, the project's own matrix) never hear each other's stop. Set by the
   * runner; absent (settings made by hand), the run id serves (see {@link channelOf}).
   */
  channel?: string;
  /** Sent as User-Agent: `petstore-conformance/<version>`. */
  userAgent: string;
  /** How the user runs this tool, quoted for sh: replay commands start with it (RunOptions.command). */
  command?: string;
  profile: Profile;
  /** Whether the profile was chosen explicitly (flag or configuration) or by default. */
  profileSource: 'explicit' | 'default';
  /** Extra trusted CA certificates (PEM) for the target's TLS, read from `caFile`. */
  caPem?: string;
  /** The certificate (PEM) presented for mutual TLS, read from `clientCert`. */
  clientCertPem?: string;
  /** Its private key (PEM, secret), read from `clientKey`. */
  clientKeyPem?: string;
  /** Headers sent with every request (`headers`, `headerEnv`); secret values are redacted. None: absent. */
  extraHeaders?: ExtraHeader[];
  /** The proxies the environment names for the target; absent: reached directly (the embedded server always is). */
  proxy?: ProxyEnvironment;
  /** When `deadlineSeconds` ends, in ms since the epoch: no request is sent from then on. */
  deadlineAt?: number;
  /** Whether the worker posts its count of requests sent (core/progress-channel.ts): a terminal shows a status line. */
  progress?: boolean;
}

/** The run's name on the channels between its threads (core/stop-channel.ts, core/progress-channel.ts): its own channel, else its run id. */
export function channelOf(settings: Pick<RunSettings, 'channel' | 'runId'>): string {
  return settings.channel ?? settings.runId;
}

/**
 * The profile of a run that chose none: `full` for the embedded server (`undefined`) and
 * loopback targets, `read-only` for every other, so no run writes to a remote target
 * unless a profile that allows it was chosen explicitly.
 */
export function defaultProfile(baseUrl: string | undefined): Profile {
  return baseUrl === undefined || isLoopback(baseUrl) ? 'full' : 'read-only';
}

/**
 * Whether the run may send the real key in a URL: to a target on loopback (or the embedded
 * server) always; to any other only with `allowKeyInUrl`, for its access logs keep URLs.
 */
export function keyMayGoInUrl(settings: Pick<RunSettings, 'baseUrl'> & { allowKeyInUrl?: boolean }): boolean {
  return Boolean(settings.allowKeyInUrl) || isLoopback(settings.baseUrl);
}

/** Connections a read-only run opens at most to a target that is not this machine, unless told otherwise: an audit of production stays light. */
export const REMOTE_READ_ONLY_CONNECTIONS = 4;

/**
 * The connections a run opens at most: as asked (`--connections`); else 48, or
 * {@link REMOTE_READ_ONLY_CONNECTIONS} for a read-only run of a target that is not on
 * loopback. Never more than a rate limit needs: at r requests/s, ⌈r⌉ connections carry
 * every request answered within a second.
 * @param baseUrl the target's; undefined for the embedded server.
 */
export function connectionsFor(values: Pick<SettingValues, 'connections' | 'rateLimit'>, baseUrl: string | undefined, profile: Profile): number {
  const remote = baseUrl !== undefined && !isLoopback(baseUrl);
  const asked = values.connections ?? (profile === 'read-only' && remote ? REMOTE_READ_ONLY_CONNECTIONS : SETTINGS.connections.default);
  return values.rateLimit === undefined ? asked : Math.min(asked, Math.max(1, Math.ceil(values.rateLimit)));
}

declare module 'vitest' {
  export interface ProvidedContext {
    /** The targets of the worker's run, checked one after another (one for a single run, a lane of a fleet). */
    runs: RunSettings[];
  }
}
