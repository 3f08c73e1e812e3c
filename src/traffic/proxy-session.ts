/**
 * One session of the validating proxy, as the CLI runs it: start it, print each finding
 * the moment its exchange completes, and when the session is stopped (SIGINT, SIGTERM)
 * write the report of everything it saw, as `judge` does for a HAR.
 */
import { toolVersion } from '../core/package-info.js';
import { KEY_PLACEHOLDER, Redactor } from '../secrets/redactor.js';
import { knownKey } from './credentials.js';
import { HarStreamWriter } from './har-writer.js';
import { findingPrinter, reportTraffic, type JudgeOptions, type JudgeOutcome } from './judge-capture.js';
import { TrafficJudge } from './judge.js';
import { startValidatingProxy, type RunningProxy } from './proxy.js';
import { UsageError } from '../core/errors.js';
import { ToolFailure } from '../core/tool-failure.js';
import type { RunSettings } from '../config/settings.js';
import { upstreamDispatcher } from '../http/dispatcher.js';

/** What `proxy` needs: the traffic options of `judge` (no files), where to listen, how to reach the target, and where to record. */
export interface ProxySessionOptions extends Omit<JudgeOptions, 'files'> {
  host: string;
  port: number;
  /** How the target is reached, as a run reaches it: the environment's proxy, extra CAs (PEM), a client certificate and key (PEM). */
  upstream?: Pick<RunSettings, 'proxy' | 'caPem' | 'clientCertPem' | 'clientKeyPem'>;
  /** `--har FILE`: every exchange recorded, redacted. */
  har?: string;
  /** Ends the session (the CLI's SIGINT, SIGTERM). */
  stop: AbortSignal;
  /** Called once the proxy listens (tests use it to send through it). */
  onListening?: (proxy: RunningProxy) => void;
}

/**
 * Runs the proxy until `stop` aborts, then writes the report.
 * @throws UsageError when the port cannot be taken or the HAR file cannot be created.
 */
export async function runProxySession(options: ProxySessionOptions): Promise<JudgeOutcome> {
  const startedAt = new Date();
  const redactor = new Redactor();
  if (options.apiKey) redactor.add(options.apiKey, KEY_PLACEHOLDER);
  const print = (text: string) => options.out?.write(`${redactor.text(text)}\n`);
  const judge = new TrafficJudge(options.baseUrl, options.checks);
  const har = options.har ? await HarStreamWriter.open(options.har).catch((error: NodeJS.ErrnoException) => Promise.reject(new UsageError(`cannot create the HAR file ${options.har}: ${error.code ?? error.message}`))) : undefined;
  const printFinding = findingPrinter(print);
  let judgeErrors = 0;
  let proxy: RunningProxy;
  try {
    proxy = await startValidatingProxy({
      target: options.baseUrl,
      host: options.host,
      port: options.port,
      judge,
      connectUpstream: () => upstreamDispatcher(options.upstream ?? {}),
      known: knownKey(options.apiKey, undefined),
      redactor,
      ...(options.secretHeaders ? { secretHeaders: options.secretHeaders } : {}),
      ...(har ? { har } : {}),
      onExchange: (_exchange, findings) => {
        if (!options.quiet) for (const finding of findings) printFinding(finding);
      },
      onJudgeError: () => judgeErrors++,
      onTargetError: (error, request) => print(`  ! the target failed ${request}: ${(error as NodeJS.ErrnoException).code ?? error.message} (the client's connection was closed, as the target's was)`),
    });
  } catch (error) {
    await har?.close();
    throw new UsageError(`cannot listen on ${options.host}:${options.port}: ${(error as NodeJS.ErrnoException).code ?? error}`);
  }
  options.onListening?.(proxy);
  print(`petstore-conformance ${toolVersion}: proxy for ${options.baseUrl} listening on ${proxy.baseUrl}: point your clients there. Findings print as they happen; Ctrl-C writes the reports.`);
  await new Promise<void>((resolve) => (options.stop.aborted ? resolve() : options.stop.addEventListener('abort', () => resolve(), { once: true })));
  await proxy.close();
  const harFailure = await har?.close();
  const { entries, judged } = judge.counts;
  const notices = [
    ...judge.notices(),
    ...(judgeErrors > 0 ? [`${judgeErrors} exchanges could not be judged (a defect of the tool; they were forwarded unaltered)`] : []),
    ...(harFailure ? [`the HAR file ${options.har} is incomplete: ${(harFailure as NodeJS.ErrnoException).code ?? harFailure.message}`] : []),
  ];
  if (har && !harFailure) print(`HAR: ${options.har} (${har.entries} exchanges, secrets redacted)`);
  // A failure of the tool ends the session like a signal; its report says so, and the verdict cannot stand (exit 3).
  const failed = options.stop.reason instanceof ToolFailure ? { stopped: `the proxy stopped: ${options.stop.reason.line}` } : {};
  const empty = judged === 0 ? { nothingJudged: `no exchange of the interface went through the proxy (${entries} exchanges forwarded)` } : {};
  return reportTraffic({ checks: judge.results(), summary: { files: [], ...judge.counts }, notices, ...failed, ...empty }, options, startedAt, redactor);
}
