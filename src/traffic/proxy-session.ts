/**
 * One session of the validating proxy, as the CLI runs it: start it, print each finding
 * the moment its exchange completes, and when the session is stopped (SIGINT, SIGTERM)
 * write the report of everything it saw, as `judge` does for a HAR.
 */
import { toolVersion } from '../core/package-info.js';
import { KEY_PLACEHOLDER, Redactor } from '../secrets/redactor.js';
import { reportTraffic, type JudgeOptions, type JudgeOutcome } from './judge-capture.js';
import { MAX_BACKLOG_BYTES, startJudging } from './judging.js';
import { ANSWER_DEADLINE_MS } from './answer-deadline.js';
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
  /** `--answer-deadline`: how long the target has to answer before the client gets the proxy's 504 (ms; default proxy.ts ANSWER_DEADLINE_MS). */
  answerDeadlineMs?: number;
  /** Ends the session (the CLI's SIGINT, SIGTERM). */
  stop: AbortSignal;
  /** Called once the proxy listens (tests use it to send through it). */
  onListening?: (proxy: RunningProxy) => void;
}

/** How long the exchanges in flight get to complete once the session stops, before they are cut (ms). */
export const STOP_GRACE_MS = 500;
/** How long the judge gets to catch up once the session stops: what it has not judged by then is counted, not judged (ms). */
export const JUDGE_GRACE_MS = 1_000;

/**
 * Runs the proxy until `stop` aborts, then writes the report. A stop ends the session in
 * about 2 s whatever is in flight: exchanges get {@link STOP_GRACE_MS} to complete and are
 * then cut, the judge {@link JUDGE_GRACE_MS} to catch up; the HAR ends valid JSON.
 * @throws UsageError when the port cannot be taken or the HAR file cannot be created.
 */
export async function runProxySession(options: ProxySessionOptions): Promise<JudgeOutcome> {
  const startedAt = new Date();
  const keyOnly = new Redactor();
  if (options.apiKey) keyOnly.add(options.apiKey, KEY_PLACEHOLDER);
  const print = (text: string) => options.out?.write(`${text}\n`);
  const printError = (text: string) => (options.err ?? options.out)?.write(`petstore-conformance: ${text}\n`);
  const judging = await startJudging(
    { baseUrl: options.baseUrl, checks: options.checks, ...(options.apiKey ? { apiKey: options.apiKey } : {}), ...(options.secretHeaders ? { secretHeaders: options.secretHeaders } : {}), ...(options.quiet ? { quiet: true } : {}) },
    options.har,
    {
      print,
      onHarFailure: (failure) => printError(`could not write ${options.har}: ${failure.reason}; it holds the first ${failure.entries} exchanges, and recording stopped`),
    },
  );
  let judgeErrors = 0;
  let unanswered = 0;
  /** Requests held until the HAR writer caught up, and how long in all (ms). */
  const holds = { requests: 0, ms: 0 };
  let proxy: RunningProxy;
  try {
    proxy = await startValidatingProxy({
      target: options.baseUrl,
      host: options.host,
      port: options.port,
      connectUpstream: () => upstreamDispatcher(options.upstream ?? {}),
      ...(options.maxBodyBytes !== undefined ? { maxBodyBytes: options.maxBodyBytes } : {}),
      onForwarded: (exchange) => judging.take(exchange),
      admit: () => {
        const room = judging.room();
        if (!room) return undefined;
        const since = Date.now();
        holds.requests++;
        return room.then(() => void (holds.ms += Date.now() - since));
      },
      onJudgeError: () => judgeErrors++,
      onTargetError: (error, request) => print(keyOnly.text(`  ! the target failed ${request}: ${(error as NodeJS.ErrnoException).code ?? error.message} (the client's connection was closed, as the target's was)`)),
      ...(options.answerDeadlineMs !== undefined ? { answerDeadlineMs: options.answerDeadlineMs } : {}),
      onUnanswered: (request, deadlineMs) => {
        unanswered++;
        print(keyOnly.text(`  ! the target did not answer ${request} within ${deadlineMs / 1000} s: the client got the proxy's 504`));
      },
    });
  } catch (error) {
    await judging.finish(Date.now());
    throw new UsageError(`cannot listen on ${options.host}:${options.port}: ${(error as NodeJS.ErrnoException).code ?? error}`);
  }
  options.onListening?.(proxy);
  print(`petstore-conformance ${toolVersion}: proxy for ${options.baseUrl} listening on ${proxy.baseUrl}: point your clients there. Findings print as they happen; Ctrl-C writes the reports.`);
  await new Promise<void>((resolve) => (options.stop.aborted ? resolve() : options.stop.addEventListener('abort', () => resolve(), { once: true })));
  const stoppedAt = Date.now();
  const cut = await proxy.close(STOP_GRACE_MS);
  const judged = await judging.finish(stoppedAt + STOP_GRACE_MS + JUDGE_GRACE_MS);
  const redactor = new Redactor();
  if (options.apiKey) redactor.add(options.apiKey, KEY_PLACEHOLDER);
  redactor.addAll(judged.secrets);
  const { entries, judged: judgedCount } = judged.counts;
  const harFailure = judged.har?.failure;
  const notices = [
    ...judged.notices,
    ...(judgeErrors + judged.judgeErrors > 0 ? [`${judgeErrors + judged.judgeErrors} exchanges could not be judged (a defect of the tool; they were forwarded unaltered)`] : []),
    ...(cut > 0 ? [`${cut} exchanges in flight when the proxy stopped were cut, and not judged`] : []),
    ...(unanswered > 0 ? [`${unanswered} exchanges got no answer from the target within ${(options.answerDeadlineMs ?? ANSWER_DEADLINE_MS) / 1000} s: each client got the proxy's 504 (Proxy-Status: petstore-conformance), and they are not judged`] : []),
    ...(judged.notJudged > 0 ? [`${judged.notJudged} exchanges were forwarded but not judged: the judge was over ${MAX_BACKLOG_BYTES / 1024 / 1024} MiB behind, or had not reached them when the proxy stopped`] : []),
    ...(holds.requests > 0 ? [`${holds.requests} requests waited ${holds.ms} ms in all before being forwarded: the writer of ${options.har} was behind, and every exchange is recorded`] : []),
    ...(judged.notRecorded > 0 ? [`${judged.notRecorded} exchanges were forwarded but not recorded in ${options.har}: its writer had not reached them when the proxy stopped`] : []),
    ...(harFailure ? [`the HAR file ${options.har} is incomplete: ${harFailure.reason}; it holds the first ${harFailure.entries} exchanges`] : []),
  ];
  if (judged.har && !harFailure) print(`HAR: ${options.har} (${judged.har.entries} exchanges, secrets redacted)`);
  // A failure of the tool ends the session like a signal; its report says so, and the verdict cannot stand (exit 3).
  // So does a report of fewer exchanges than went through: it is partial.
  const unjudged = judged.notJudged + cut;
  const partial = unjudged > 0 ? `the report is partial: ${unjudged} exchanges went through the proxy unjudged (see the notices)` : undefined;
  const stopped = options.stop.reason instanceof ToolFailure ? `the proxy stopped: ${options.stop.reason.line}` : (judged.failed ?? partial);
  const empty = judgedCount === 0 ? { nothingJudged: `no exchange of the interface went through the proxy (${entries} exchanges forwarded)` } : {};
  const outcome = await reportTraffic({ checks: judged.checks, summary: { files: [], ...judged.counts }, notices, ...(stopped !== undefined ? { stopped } : {}), ...empty }, options, startedAt, redactor);
  if (harFailure) printError(`the reports are incomplete (the HAR file ${options.har} holds ${harFailure.entries} of the exchanges); the verdict above stands`);
  return outcome;
}
