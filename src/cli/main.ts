import { tmpdir } from 'node:os';
import { mkdtemp } from 'node:fs/promises';
import { dirname, join, resolve } from 'node:path';
import { Command, CommanderError, InvalidArgumentError, Option } from 'commander';
import { DEFAULT_CONFIG_FILE } from '../config/config-path.js';
import { parseArgument } from '../config/setting-values.js';
import { SETTINGS, SETTING_LIST, type Format, type Setting, type SettingName, type SettingValues } from '../config/settings.js';
import { normalizeBaseUrl } from '../config/base-url.js';
import { UsageError, hasCode } from '../core/errors.js';
import { toolVersion } from '../core/package-info.js';
import { EXIT } from '../report/verdict.js';
import { createReportDir, defaultReportDir, pruneRuns } from '../report/report-dir.js';
import { resolveFleet, resolveRunOptions, type RunFlags } from './run-options.js';
import { invocation } from './invocation.js';
import { strayWordError } from './stray-words.js';
import { interruptOnSignals } from './signals.js';
import { resourceExhausted } from '../core/tool-failure.js';
import { KEY_VARIABLE } from '../secrets/redactor.js';
import { ANSWER_DEADLINE_MS } from '../traffic/answer-deadline.js';

/** Output streams and environment of one CLI invocation (injectable for tests). */
export interface CliIo {
  stdout: NodeJS.WritableStream & { isTTY?: boolean };
  stderr: NodeJS.WritableStream;
  env: NodeJS.ProcessEnv;
  cwd: string;
  /** The entry point as node was given it (`process.argv[1]`): replay commands show how to run the tool again (cli/invocation.ts). */
  script?: string;
  /**
   * Aborts on SIGINT or SIGTERM, with the signal's name as reason. The entry point catches
   * signals from its first instant (see cli/signals.ts): one arriving while the tool
   * still loads must not kill it without a report.
   */
  interrupt?: AbortSignal;
}

/** The process's streams, environment and folder, and its signals (see cli/signals.ts). */
export const defaultIo = (interrupt?: AbortSignal): CliIo => ({ stdout: process.stdout, stderr: process.stderr, env: process.env, cwd: process.cwd(), ...(process.argv[1] ? { script: process.argv[1] } : {}), ...(interrupt ? { interrupt } : {}) });


/**
 * Runs the command line and returns the exit code: 0 conformant, 1 nonconformant,
 * 2 usage or configuration error, 3 the target could not be assessed (see docs/running.md).
 * Never throws: every error becomes one line on stderr.
 */
export async function main(argv: string[], io: CliIo = defaultIo()): Promise<number> {
  let code: number = EXIT.usage;
  // A key in argv lands in shell history and process lists: refused with the way that
  // works, and never echoed (commander would quote the argument in its error).
  if (argv.some((arg) => arg === '--api-key' || arg.startsWith('--api-key='))) {
    io.stderr.write(`petstore-conformance: error: the API key is never taken on the command line (shell history, process lists); use --api-key-env NAME (default ${KEY_VARIABLE}) or --api-key-file FILE\n`);
    return EXIT.usage;
  }
  const program = new Command('petstore-conformance')
    .description('Conformance test suite for the Pet Store Service categories interface (v1)')
    .version(toolVersion)
    .addHelpText(
      'after',
      '\nExit codes: 0 conformant, 1 nonconformant (a must check failed), 2 usage or configuration error,\n' +
        '3 the target could not be assessed (unreachable, every request failing, the run stopped), or the tool itself failed (the line names the cause).',
    )
    .exitOverride()
    .configureOutput({
      // The width of the terminal the help goes to (commander would read process.stdout's): 80 off a terminal.
      getOutHelpWidth: () => (io.stdout.isTTY ? (io.stdout as { columns?: number }).columns ?? 80 : 80),
      writeOut: (text) => io.stdout.write(text),
      writeErr: (text) => io.stderr.write(text),
      outputError: (text, write) => write(`petstore-conformance: ${text.trim().replace(/^error: /, 'error: ')} (see --help)\n`),
    });

  // Stray words reach the action, which says what was likely meant (cli/stray-words.ts); commander would say only "too many arguments".
  const run = program.command('run', { isDefault: true }).description('run the suite against a target (default: an embedded reference server)').allowExcessArguments(true);
  // Every setting's flag comes from the table; its attribute is commander's name for the flag.
  const flagged = SETTING_LIST.filter(([, setting]) => setting.flag).map(([name, setting]) => ({ name, option: optionFor(setting), alias: aliasFor(setting) }));
  for (const { option, alias } of flagged) {
    run.addOption(option);
    if (alias) run.addOption(alias);
  }
  run
    .option('--config <file>', `YAML file of named targets (default: the nearest ${DEFAULT_CONFIG_FILE}, here or in a folder above)`)
    .option('--target <name>', 'the configured target to run against; flags override its settings')
    .action(async (parsed: Record<string, unknown>, command: Command) => {
      if (command.args.length > 0) throw new UsageError(strayWordError(command.args[0]!, program.commands.map((c) => c.name())));
      const flags: RunFlags = { config: parsed.config as string | undefined, target: parsed.target as string | undefined };
      for (const { name, option, alias } of flagged) (flags as Record<string, unknown>)[name] = valueOf(parsed, option, alias);
      const given = (option: Option | undefined) => option !== undefined && command.getOptionValueSource(option.attributeName()) === 'cli';
      const options = new Map(flagged.map(({ name, option, alias }) => [name, [option, alias]]));
      code = await withSpareThread(() => runCommand(flags, (name) => (options.get(name) ?? []).some(given), io));
    });

  program
    .command('list')
    .description('print the checks (id, clause, level, title), the requirements catalogue and the request variations, in 80 columns; nothing is sent')
    .addOption(new Option('--format <format>', 'table, or json: an array of checks, each with its premise').choices(['table', 'json']).default('table'))
    .option('--wide', 'the whole table: every column in full (premises, requirements, sources), however wide')
    .option('--variations', 'with --format json: the request variations instead (kind, level, honest refusal of each)')
    .action(async (flags: { format: 'table' | 'json'; variations?: boolean; wide?: boolean }) => {
      const render = await import('../report/check-list.js');
      if (flags.variations && flags.format === 'json') {
        io.stdout.write(render.renderVariationsJson());
        code = 0;
        return;
      }
      const { listChecks } = await import('../runner/list.js');
      const list = await listChecks();
      io.stdout.write(flags.format === 'json' ? render.renderCheckListJson(list) : render.renderCheckListTable(list, flags.wide ? undefined : render.LIST_WIDTH));
      code = 0;
    });

  program
    .command('merge')
    .description('join the fleet reports of several runs (the shards of one fleet) into one: fleet.json, summary.md, junit.xml; exits with the fleet\'s outcome')
    .argument('<dirs...>', 'report folders of the parts, each with a fleet.json')
    .requiredOption('--report-dir <dir>', 'where the joined fleet report goes')
    .action(async (dirs: string[], flags: { reportDir: string }) => {
      code = await mergeCommand(dirs, flags.reportDir, io);
    });

  const judge = program
    .command('judge')
    .description("judge captured traffic (HAR 1.2: browsers, mitmproxy, Playwright, this tool's exchanges.har) by the suite's rules; nothing is sent")
    .argument('<files...>', 'HAR files, judged in order as one capture');
  for (const option of [...trafficOptionList(), optionFor(SETTINGS.acceptTruncated)]) judge.addOption(option);
  judge.action(async (files: string[], flags: JudgeFlags) => {
    code = await judgeCommand(files, flags, io);
  });

  const proxy = program
    .command('proxy')
    .description('a validating reverse proxy in front of the target: clients point at http://HOST:PORT/v1, every exchange is forwarded unaltered and judged as it completes; Ctrl-C or SIGTERM writes the reports')
    .option('--port <n>', 'port to listen on (0: any free port)', port, 8080)
    .option('--host <host>', 'address to listen on', '127.0.0.1')
    .option('--har <file>', 'record every exchange to this HAR file, secrets redacted')
    .option('--answer-deadline <seconds>', "how long the target has to answer (its status line and headers) before the client gets the proxy's 504", seconds, ANSWER_DEADLINE_MS / 1000);
  // The target is reached as a run reaches it: HTTP(S)_PROXY and NO_PROXY, extra CAs, a client certificate.
  for (const option of [...trafficOptionList(), ...[SETTINGS.caFile, SETTINGS.clientCert, SETTINGS.clientKey].map(optionFor)]) proxy.addOption(option);
  proxy.action(async (flags: ProxyFlags) => {
    code = await proxyCommand(flags, io);
  });

  program
    .command('replay')
    .description("send a failure's request again exactly as the run sent it, its framing included (a body in the same chunks: curl sends one), and print the answer; the key is read from PETSTORE_API_KEY")
    .argument('<report>', 'report.json, or the folder that holds it')
    .argument('<failure>', "a root cause's id (F3), or a failed check's id")
    .action(async (report: string, failure: string) => {
      const { replayFailure } = await import('./replay.js');
      code = await replayFailure(report, failure, io);
    });

  program
    .command('serve')
    .description('run the reference server alone, for building clients')
    .option('--port <n>', 'port to listen on (0: any free port)', port, 8080)
    .option('--host <host>', 'address to listen on', '127.0.0.1')
    .option('--api-key-env <name>', 'environment variable holding the key to accept (generated and printed when unset)', KEY_VARIABLE)
    .action(async (flags: ServeFlags) => {
      code = await serve(flags, io);
    });

  try {
    await program.parseAsync(argv, { from: 'user' });
    return code;
  } catch (error) {
    if (error instanceof CommanderError) {
      return error.code === 'commander.helpDisplayed' || error.code === 'commander.version' || error.code === 'commander.help'
        ? 0
        : EXIT.usage;
    }
    if (hasCode(error, 'PCS_USAGE')) {
      io.stderr.write(`petstore-conformance: error: ${error.message}\n`);
      return EXIT.usage;
    }
    const exhausted = resourceExhausted(error);
    io.stderr.write(`petstore-conformance: ${exhausted ? exhausted.line : `internal error: ${(error as Error).message ?? error}`}\n`);
    if (io.env.PETSTORE_CONFORMANCE_DEBUG) io.stderr.write(`${(error as Error).stack}\n`);
    return EXIT.error;
  }
}

/**
 * Runs `run` with a suite thread opened first (runner/suite.ts): its modules load on the
 * other core while this thread loads the run's and reads the configuration. A run that
 * never takes it (a usage error, a capture judged) ends it here.
 */
async function withSpareThread(run: () => Promise<number>): Promise<number> {
  const { openSuiteThread, closeSpareThreads } = await import('../runner/suite.js');
  await openSuiteThread();
  try {
    return await run();
  } finally {
    await closeSpareThreads();
  }
}

async function runCommand(flags: RunFlags, explicit: (name: SettingName) => boolean, io: CliIo): Promise<number> {
  if (flags.targets) return fleetCommand(flags, explicit, io);
  if (flags.shard) throw new UsageError('--shard slices a fleet: give --targets all (or names) with it');
  const options = await resolveRunOptions(flags, explicit, io.env, io.cwd);
  // `--report-dir -`: the one format asked for goes to stdout, and the console to stderr.
  const toStdout = flags.reportDir === '-';
  const reportDir = toStdout ? null : await usableReportDir(flags.reportDir, io, flags.keepReports);

  return announcingInterrupt(io, async (interrupt) => {
    // Loaded here, not at start-up: --help and usage errors need none of the run's modules.
    const { runConformance } = await import('../runner/run.js');
    const outcome = await runConformance({
      ...options,
      command: invocation(io.script, io.env, io.cwd),
      reportDir,
      linkLatest: !flags.reportDir && reportDir !== null && reportDir.startsWith(resolve(io.cwd, 'reports')),
      out: toStdout ? io.stderr : io.stdout,
      err: io.stderr,
      ...(toStdout ? { reportStream: io.stdout } : {}),
      color: colourWanted(flags, io, toStdout ? (io.stderr as { isTTY?: boolean }) : io.stdout),
      signal: interrupt,
    });
    return outcome.exitCode;
  });
}

/** `run --targets …`: a fleet of configured targets, reports per target beside the fleet's. */
async function fleetCommand(flags: RunFlags, explicit: (name: SettingName) => boolean, io: CliIo): Promise<number> {
  if (flags.reportDir === '-') throw new UsageError('a fleet writes a folder per target: --report-dir - is for one target');
  const { members, fleet } = await resolveFleet(flags, explicit, io.env, io.cwd);
  const reportDir = await usableReportDir(flags.reportDir, io, flags.keepReports);
  return announcingInterrupt(io, async (interrupt) => {
    const { runFleet } = await import('../runner/fleet.js');
    const command = invocation(io.script, io.env, io.cwd);
    const outcome = await runFleet(members.map((member) => ({ ...member, command })), { ...fleet, reportDir, out: io.stdout, signal: interrupt });
    return outcome.exitCode;
  });
}

/** Runs `run` with the CLI's interrupt (Ctrl-C, SIGTERM), saying on stderr when it comes that the reports are still being written. */
async function announcingInterrupt(io: CliIo, run: (interrupt: AbortSignal) => Promise<number>): Promise<number> {
  const interrupt = io.interrupt ?? new AbortController().signal;
  const announce = () => io.stderr.write(`petstore-conformance: ${String(interrupt.reason)}; finishing the report (press Ctrl-C again to quit now)\n`);
  if (interrupt.aborted) announce();
  interrupt.addEventListener('abort', announce, { once: true });
  try {
    return await run(interrupt);
  } finally {
    interrupt.removeEventListener('abort', announce);
  }
}

/** `merge DIR… --report-dir OUT`: the fleet reports of several shards joined into one. */
async function mergeCommand(dirs: string[], out: string, io: CliIo): Promise<number> {
  const { mergeFleets } = await import('../runner/merge.js');
  const target = await usableReportDir(out, io);
  const outcome = await mergeFleets(dirs.map((dir) => resolve(io.cwd, dir)), target, (line) => io.stdout.write(`${line}\n`));
  return outcome.exitCode;
}

/**
 * The report directory, created: the one asked for, or `reports/<timestamp>` here. When
 * the default cannot be created (a read-only working directory), a folder made fresh in
 * the system's temporary directory takes its place (mkdtemp, mode 0700: no other user made
 * it first, or can read it), said in one line; a directory asked for must work. In the
 * default, the runs beyond the newest `keep` (`--keep-reports`) are removed: reports/
 * never grows without end.
 * @throws UsageError when the directory asked for, or every candidate, cannot be created.
 */
async function usableReportDir(asked: string | undefined, io: CliIo, keep: number = SETTINGS.keepReports.default): Promise<string> {
  const dir = asked ? resolve(io.cwd, asked) : defaultReportDir(io.cwd, new Date());
  try {
    await createReportDir(dir, { uid: process.getuid?.() ?? null, cwd: io.cwd });
    if (!asked) await pruneRuns(dirname(dir), keep);
    return dir;
  } catch (error) {
    const { code, message } = error as NodeJS.ErrnoException;
    if (asked) throw new UsageError(code === 'EOWNER' ? `cannot use the report directory: ${message}` : `cannot create the report directory ${dir}: ${code ?? error}`);
  }
  const fallback = join(tmpdir(), 'petstore-conformance-');
  try {
    const fresh = await mkdtemp(fallback);
    io.stderr.write(`petstore-conformance: ${io.cwd} is not writable; the reports go to ${fresh}\n`);
    return fresh;
  } catch (error) {
    throw new UsageError(`cannot create the report directory ${fallback}…: ${(error as NodeJS.ErrnoException).code ?? error}`);
  }
}

/** The options `judge` and `proxy` share, as commander options: the interface, the key when known, secrets and the report (flags from the table of settings). */
function trafficOptionList(): Option[] {
  return [
    trafficBaseUrl(),
    // `--url`, as for `run`: the one flag is checked for in trafficOptions (commander's mandatory option knows no alias).
    aliasFor(SETTINGS.baseUrl)!,
    new Option('--api-key-env <name>', 'environment variable holding the valid key, when you know it: a valid key answered 401 is then judged too'),
    ...[SETTINGS.headerEnv, SETTINGS.minMustChecks, SETTINGS.maxResponseBytes, SETTINGS.reportDir, SETTINGS.keepReports, SETTINGS.formats, SETTINGS.strict, SETTINGS.knownFailures, SETTINGS.quiet, SETTINGS.color].map(optionFor),
  ];
}

/** `judge` and `proxy`'s base URL: required, given as `--base-url`, `-u` or `--url`. */
const trafficBaseUrl = () => optionFor({ ...SETTINGS.baseUrl, help: 'required: the base URL of the interface the traffic went to, ending with /v1; entries elsewhere are counted and left alone' });

/** The flags `judge` and `proxy` share: the interface, the key when known, secrets, and the report. */
interface TrafficFlags {
  baseUrl?: string;
  url?: string;
  apiKeyEnv?: string;
  headerEnv?: string[];
  reportDir?: string;
  /** Runs kept in reports/ (`--keep-reports`). */
  keepReports?: number;
  /** `--format`'s list (commander names it after the flag). */
  format?: Format[];
  strict?: boolean;
  knownFailures?: string;
  minMustChecks?: SettingValues['minMustChecks'];
  /** Body bytes kept per body (`--max-response-bytes`). */
  maxResponseBytes?: number;
  quiet?: boolean;
  color?: boolean;
}

/** The flags of `judge`: the traffic's, and whether a capture cut short may give a verdict. */
interface JudgeFlags extends TrafficFlags {
  acceptTruncated?: boolean;
}

/** The traffic options common to `judge` and `proxy`, read from flags and the environment. */
async function trafficOptions(flags: TrafficFlags, io: CliIo) {
  const option = trafficBaseUrl();
  const given = valueOf(flags as unknown as Record<string, unknown>, option, aliasFor(SETTINGS.baseUrl)) as string | undefined;
  if (given === undefined) throw new UsageError(`required option '${option.flags}' not specified`);
  const baseUrl = normalizeBaseUrl(given);
  let apiKey: string | undefined;
  if (flags.apiKeyEnv !== undefined) {
    apiKey = io.env[flags.apiKeyEnv] || undefined;
    if (!apiKey) throw new UsageError(`--api-key-env ${flags.apiKeyEnv}: the variable is not set`);
  }
  const secretHeaders = (flags.headerEnv ?? []).map((pair) => pair.split('=', 1)[0]!.toLowerCase());
  const [{ loadKnownFailures }, { checkIds, listChecks }] = await Promise.all([import('../config/known-failures.js'), import('../runner/list.js')]);
  const checks = (await listChecks()).checks;
  const knownFailures = flags.knownFailures ? await loadKnownFailures(resolve(io.cwd, flags.knownFailures), await checkIds()) : undefined;
  return {
    checks,
    baseUrl,
    ...(apiKey ? { apiKey } : {}),
    secretHeaders,
    formats: flags.format ?? [...SETTINGS.formats.default],
    strict: flags.strict ?? SETTINGS.strict.default,
    ...(flags.minMustChecks !== undefined ? { minMustChecks: flags.minMustChecks } : {}),
    ...(flags.maxResponseBytes !== undefined ? { maxBodyBytes: flags.maxResponseBytes } : {}),
    ...(knownFailures ? { knownFailures } : {}),
    quiet: flags.quiet ?? SETTINGS.quiet.default,
    color: colourWanted(flags, io, io.stdout),
  };
}

/**
 * Whether the console output written to `stream` is coloured, the same for every command:
 * on a terminal, or with FORCE_COLOR; never with NO_COLOR (no-color.org) or `--no-color`.
 */
function colourWanted(flags: { color?: boolean }, io: CliIo, stream: { isTTY?: boolean }): boolean {
  return flags.color !== false && !io.env.NO_COLOR && Boolean(stream.isTTY || io.env.FORCE_COLOR);
}

/** `judge FILE…`: a capture judged into a report (traffic/judge-capture.ts). */
async function judgeCommand(files: string[], flags: JudgeFlags, io: CliIo): Promise<number> {
  const options = await trafficOptions(flags, io);
  const reportDir = flags.reportDir === '-' ? null : await usableReportDir(flags.reportDir, io, flags.keepReports);
  const { judgeCapture } = await import('../traffic/judge-capture.js');
  return announcingInterrupt(io, async (signal) => {
    const outcome = await judgeCapture({ ...options, files: files.map((file) => resolve(io.cwd, file)), ...(flags.acceptTruncated ? { acceptTruncated: true } : {}), reportDir, out: io.stdout, err: io.stderr, signal });
    return outcome.exitCode;
  });
}

/** The flags of `proxy`: the traffic's, where to listen and record, and how to reach the target. */
interface ProxyFlags extends TrafficFlags {
  port: number;
  host: string;
  har?: string;
  answerDeadline: number;
  caFile?: string;
  clientCert?: string;
  clientKey?: string;
}

/** `proxy`: the validating proxy until Ctrl-C or SIGTERM, then its report (traffic/proxy-session.ts). */
async function proxyCommand(flags: ProxyFlags, io: CliIo): Promise<number> {
  const options = await trafficOptions(flags, io);
  const [{ readInput }, { proxyEnvironment }] = await Promise.all([import('../config/read-input.js'), import('../config/proxy.js')]);
  const read = async (file: string | undefined, what: string) => (file ? await readInput(resolve(io.cwd, file), what) : undefined);
  const upstream = {
    proxy: proxyEnvironment(io.env),
    caPem: await read(flags.caFile, 'the CA file'),
    clientCertPem: await read(flags.clientCert, 'the client certificate'),
    clientKeyPem: await read(flags.clientKey, 'the client key'),
  };
  if (upstream.clientCertPem !== undefined || upstream.clientKeyPem !== undefined) (await import('../config/client-certificate.js')).assertClientCertificate(upstream.clientCertPem, upstream.clientKeyPem);
  const reportDir = flags.reportDir === '-' ? null : await usableReportDir(flags.reportDir, io, flags.keepReports);
  const { runProxySession } = await import('../traffic/proxy-session.js');
  return announcingInterrupt(io, async (stop) => {
    const outcome = await runProxySession({ ...options, upstream, host: flags.host, port: flags.port, answerDeadlineMs: flags.answerDeadline * 1000, ...(flags.har ? { har: resolve(io.cwd, flags.har) } : {}), reportDir, out: io.stdout, err: io.stderr, stop });
    return outcome.exitCode;
  });
}

interface ServeFlags {
  port: number;
  host: string;
  apiKeyEnv: string;
}

async function serve(flags: ServeFlags, io: CliIo): Promise<number> {
  const given = io.env[flags.apiKeyEnv] || undefined;
  const { startReferenceServer } = await import('../reference/server.js');
  let server;
  try {
    server = await startReferenceServer({ apiKey: given, host: flags.host, port: flags.port });
  } catch (error) {
    throw new UsageError(`cannot listen on ${flags.host}:${flags.port}: ${(error as NodeJS.ErrnoException).code ?? error}`);
  }
  io.stdout.write(`Reference server listening on ${server.baseUrl}\n`);
  io.stdout.write(
    server.generatedKey
      ? `API key (generated): ${server.apiKey}\nexport ${flags.apiKeyEnv}=${server.apiKey}\n`
      : `API key: from ${flags.apiKeyEnv}\n`,
  );
  io.stdout.write('Press Ctrl-C to stop.\n');
  const interrupt = io.interrupt ?? interruptOnSignals(EXIT.error);
  await new Promise<void>((resolveStop) => (interrupt.aborted ? resolveStop() : interrupt.addEventListener('abort', () => resolveStop(), { once: true })));
  await server.close();
  return 0;
}

/** The value of a setting given by its flag or by its alias (both at once: a usage error). */
function valueOf(parsed: Record<string, unknown>, option: Option, alias: Option | undefined): unknown {
  const value = parsed[option.attributeName()];
  const aliased = alias ? parsed[alias.attributeName()] : undefined;
  if (alias === undefined || aliased === undefined) return value;
  if (value === undefined) return aliased;
  throw new UsageError(`${alias.long} and ${option.long} name the same setting: give one`);
}

/** The hidden commander option for a setting's alias (see Setting.alias): the same argument and parser as its flag. */
function aliasFor(setting: Setting): Option | undefined {
  if (!setting.alias) return undefined;
  const argument = setting.flag!.slice(setting.flag!.indexOf(' '));
  return optionFor({ ...setting, flag: `${setting.alias}${argument}`, short: undefined, alias: undefined }).hideHelp();
}

/** A commander option for a setting: its flag (and one-letter flag), help with bounds and default, and a parser that applies them. */
function optionFor(setting: Setting): Option {
  const facts = [setting.type === 'integer' || setting.type === 'number' ? `${setting.min} to ${setting.max} ${setting.unit}` : undefined];
  if (setting.default !== undefined && setting.type !== 'boolean') facts.push(`default ${Array.isArray(setting.default) ? setting.default.join(',') : setting.default}`);
  const shown = facts.filter((fact) => fact !== undefined);
  const alias = setting.alias ? `; also ${setting.alias}` : '';
  const option = new Option(setting.short ? `${setting.short}, ${setting.flag}` : setting.flag!, `${setting.help}${alias}${shown.length > 0 ? ` (${shown.join('; ')})` : ''}`);
  if (setting.type === 'boolean') return option;
  return option.argParser((text: string, previous: unknown) => {
    try {
      const value = parseArgument(setting, text);
      // A repeated flag collects its items (commander passes the default, absent here, first).
      return setting.type === 'texts' ? [...((previous as string[] | undefined) ?? []), value] : value;
    } catch (error) {
      throw new InvalidArgumentError((error as Error).message);
    }
  });
}

/** A commander argument parser for numbers `accept` admits; otherwise "expected <what>." */
function numberArgument(accept: (value: number) => boolean, what: string): (text: string) => number {
  return (text) => {
    const value = Number(text);
    if (text.trim() === '' || !accept(value)) throw new InvalidArgumentError(`expected ${what}.`);
    return value;
  };
}

const port = numberArgument((v) => Number.isSafeInteger(v) && v >= 0 && v <= 65535, 'a port, 0 to 65535');
/** Whole seconds, 1 to 3600 (an hour: no answer is worth holding a client longer). */
const seconds = numberArgument((v) => Number.isSafeInteger(v) && v >= 1 && v <= 3600, 'whole seconds, 1 to 3600');
