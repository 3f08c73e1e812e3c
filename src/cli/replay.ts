/**
 * `replay <report.json> <F3 | check-id>`: sends a failure's request again exactly as the run
 * sent it, framing included. curl sends a body in one piece; a failure that depends on
 * where the body was cut (a server that decodes each chunk on its own) only shows again
 * when the same bytes go in the same chunks (http/chunks.ts). Credentials and headers read
 * from the environment are expanded as the report's curl line expands them (POSIX sh), so
 * the report holds no secret and the replay sends the exact one. The answer is printed as
 * it came, the key redacted.
 */
import { stat } from 'node:fs/promises';
import { join, resolve } from 'node:path';
import type { Dispatcher } from 'undici';
import { EnvHttpProxyAgent } from '../http/undici-parts.js';
import type { FailureRecord } from '../check/types.js';
import { cutBetweenCharacters, targetAsWritten, type RecordedRequest } from '../core/exchange.js';
import { UsageError } from '../core/errors.js';
import { proxyEnvironment } from '../config/proxy.js';
import { readInput } from '../config/read-input.js';
import { MAX_REPORT_BYTES } from '../runner/merge.js';
import { framingWords, inChunks } from '../http/chunks.js';
import { curlExpanded, reproducing } from '../report/curl.js';
import type { Report } from '../report/model.js';
import { EXIT } from '../report/verdict.js';
import { KEY_PLACEHOLDER, KEY_VARIABLE, Redactor } from '../secrets/redactor.js';

/** Characters of the answer's body printed at most: the rest is said, not shown. */
const SHOWN_BODY_CHARS = 64 * 1024;

/** How long the target has to answer the replay, in ms. */
const REPLAY_TIMEOUT_MS = 30_000;

/** What `replay` writes to and reads from. */
export interface ReplayIo {
  stdout: NodeJS.WritableStream;
  env: NodeJS.ProcessEnv;
  cwd: string;
}

/**
 * Replays one failure of a report and prints the answer.
 * @param reportPath report.json, or the folder that holds it.
 * @param which a root cause's id (`F3`: the failure its Reproduce line stands for, report/curl.ts `reproducing`) or a check's id.
 * @returns 0 when the target answered, 3 when it did not.
 * @throws UsageError for a report that cannot be read, an id it does not hold, a request
 *   recorded truncated, or a variable the request needs that is unset.
 */
export async function replayFailure(reportPath: string, which: string, io: ReplayIo): Promise<number> {
  const report = await readReport(resolve(io.cwd, reportPath));
  const { failure, label } = failureOf(report, which);
  const request = failure.request;
  if (request.bodyBytes !== undefined) throw new UsageError(`${label}'s body was recorded truncated (${request.bodyBytes} bytes sent): replay cannot send it as it went; the run's own replay (the seed) does`);
  const expand = (text: string) => curlExpanded(text, io.env);
  const url = await expand(request.url);
  const headers = Object.fromEntries(await Promise.all(Object.entries(request.headers).filter(([name]) => !FRAMING_FIELDS.has(name)).map(async ([name, value]) => [name, await expand(value)] as const)));
  const body = request.body === undefined ? undefined : await expand(request.body);
  const framing = request.chunks && body !== undefined ? `, the body ${framingWords(body, request.chunks)}` : '';
  io.stdout.write(`Replaying ${label}: ${request.method} ${request.url}${framing}\n`);
  const redactor = new Redactor();
  if (io.env[KEY_VARIABLE]) redactor.add(io.env[KEY_VARIABLE]!, KEY_PLACEHOLDER);
  const target = targetAsWritten(url);
  // Reached as the run reached it: through HTTP(S)_PROXY unless NO_PROXY says otherwise, the extra CAs of NODE_EXTRA_CA_CERTS.
  const client = new EnvHttpProxyAgent({ headersTimeout: REPLAY_TIMEOUT_MS, bodyTimeout: REPLAY_TIMEOUT_MS, ...proxyEnvironment(io.env) });
  try {
    const answer = await client.request({
      origin: new URL(url).origin,
      method: request.method as Dispatcher.HttpMethod,
      path: target.query === undefined ? target.path : `${target.path}?${target.query}`,
      headers,
      body: body === undefined ? undefined : request.chunks ? inChunks(body, request.chunks) : body,
    });
    const text = await answer.body.text();
    const fields = Object.entries(answer.headers).flatMap(([name, value]) => (Array.isArray(value) ? value : [value]).map((one) => `${name}: ${redactor.header(String(one))}`));
    const shown = text.length > SHOWN_BODY_CHARS ? `${cutBetweenCharacters(text, SHOWN_BODY_CHARS)}\n… ${text.length - SHOWN_BODY_CHARS} more characters` : text;
    const recorded = failure.response?.status;
    const then = recorded === undefined ? '' : recorded === answer.statusCode ? ` (as recorded)` : ` (recorded: ${recorded})`;
    io.stdout.write(`HTTP ${answer.statusCode}${then}\n${fields.join('\n')}\n\n${redactor.responseBody(shown)}\n`);
    return EXIT.conformant;
  } catch (error) {
    io.stdout.write(`no answer: ${(error as { code?: string }).code ?? 'ERROR'}: ${redactor.text((error as Error).message)}\n`);
    return EXIT.error;
  } finally {
    await client.close().catch(() => {});
  }
}

/** Fields undici writes from the body it is given: the recorded ones would frame it twice. */
const FRAMING_FIELDS = new Set(['transfer-encoding', 'content-length']);

async function readReport(path: string): Promise<Report> {
  const file = (await stat(path).catch(() => undefined))?.isDirectory() ? join(path, 'report.json') : path;
  const text = await readInput(file, 'the report', MAX_REPORT_BYTES);
  try {
    const report = JSON.parse(text) as Report;
    if (!Array.isArray(report.checks) || !Array.isArray(report.findings)) throw new Error('no checks');
    return report;
  } catch {
    throw new UsageError(`${file} is not a report.json of petstore-conformance`);
  }
}

/** The failure `which` names, and how to name it: `F3 (chunked-body-created-exactly)`. */
function failureOf(report: Report, which: string): { failure: FailureRecord & { request: RecordedRequest }; label: string } {
  const finding = report.findings.find((candidate) => candidate.id === which);
  const checks = (finding ? finding.checks : [which]).map((id) => report.checks.find((check) => check.id === id));
  // The failure a root cause's Reproduce line stands for (report/curl.ts).
  const failure = reproducing(checks.map((check) => check?.failure));
  const check = checks.find((candidate) => candidate?.failure === failure);
  if (!failure || !check) {
    const known = report.findings.map((candidate) => candidate.id).join(', ') || 'none';
    throw new UsageError(`the report holds no failure ${which} with a request to replay (its root causes: ${known}; or give a failed check's id)`);
  }
  return { failure, label: finding ? `${finding.id} (${check.id})` : check.id };
}
