import type { SettingValues } from '../config/settings.js';
import type { Exchange } from '../core/exchange.js';
import type { Report } from '../report/model.js';

/**
 * What to run against, and how: any setting of the table (config/settings.ts, each with its
 * bounds and default; `baseUrl` already normalized, absent: an embedded reference server),
 * and what only code can give.
 */
export interface RunOptions extends Omit<SettingValues, 'reportDir'> {
  /** The key for `baseUrl`; ignored for the embedded server, which makes its own. */
  apiKey?: string;
  /** Where the key came from, named in messages about a refused key (e.g. `the environment variable PETSTORE_API_KEY`). */
  keySource?: string;
  /** Extra trusted CA certificates (PEM) for the target's TLS (the CLI reads them from `caFile`). */
  caPem?: string;
  /** The certificate and key (PEM) for mutual TLS (the CLI reads them from `clientCert` and `clientKey`). */
  clientCertPem?: string;
  clientKeyPem?: string;
  /**
   * Where `headerEnv`'s variables and the proxy variables (HTTP_PROXY, HTTPS_PROXY,
   * NO_PROXY) are read; default: `process.env`.
   */
  env?: NodeJS.ProcessEnv;
  /** Where the report files go; absent (or `null`) writes nothing. */
  reportDir?: string | null;
  /** Whether to point `<reportDir>/../latest` at this run (for the default directory). */
  linkLatest?: boolean;
  /** Console output; `null` prints nothing. */
  out?: NodeJS.WritableStream | null;
  /** Where the run's warnings go, each once (the CLI: stderr); none when absent. */
  err?: NodeJS.WritableStream | null;
  /**
   * Where to write the one report format asked for (`formats`), instead of files: the
   * CLI's `--report-dir -` (stdout, the console then going to stderr). Needs no `reportDir`.
   */
  reportStream?: NodeJS.WritableStream;
  /** Aborts the run (e.g. on SIGINT); the report then has verdict `error`. */
  signal?: AbortSignal;
  /** The target's name in the configuration file: shown in fleet reports, and part of the run id. */
  targetName?: string;
  /**
   * How the user runs this tool, quoted for sh: the first words of every replay command
   * (the CLI: as it was invoked, e.g. `node bin/petstore-conformance.js`; cli/invocation.ts).
   * Default `npx petstore-conformance`.
   */
  command?: string;
}

/** The result of a run. */
export interface RunOutcome {
  report: Report;
  /** 0 conformant, 1 nonconformant, 3 could not assess (2 is the CLI's, for usage errors). */
  exitCode: number;
  /** Files written, in the order of the formats asked for. */
  written: string[];
  /** Report files that could not be written (a full disk, a size limit), each with why: the verdict stands, the reports are incomplete. */
  unwritten?: Array<{ path: string; reason: string }>;
  /** Every exchange the checks made (redacted), for callers that inspect traffic. */
  exchanges: Exchange[];
}
