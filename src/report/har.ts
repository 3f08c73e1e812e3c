import { STATUS_CODES } from 'node:http';
import { keptText, RECORDED_BODY_CAP, type Exchange } from '../core/exchange.js';
import type { Report } from './model.js';

/**
 * Every exchange of the run as HAR 1.2 (http://www.softwareishard.com/blog/har-12-spec/),
 * for browsers' developer tools. Secrets are already placeholders in exchanges; an
 * exchange that got no response is recorded with status 0, as browsers record a failed
 * request, and its error in `comment`. Each entry's `comment` names the check.
 */
export function renderHar(report: Report, exchanges: readonly Exchange[]): string {
  const log = { version: '1.2', creator: { name: report.tool.name, version: report.tool.version }, pages: [], entries: exchanges.map(harEntry) };
  return `${JSON.stringify({ log }, null, 2)}\n`;
}

/** What a cut body's `comment` says. */
const CUT = `cut to its first ${RECORDED_BODY_CAP} characters by petstore-conformance`;

/**
 * One exchange as a HAR 1.2 entry (secrets must already be placeholders). A body the run
 * kept cut is written without its mark, beside its full size (keptText): any HAR reader
 * then sees a text shorter than its body, and this tool's own judge counts it as cut.
 */
export function harEntry(exchange: Exchange): Record<string, unknown> {
  const headers = (record: Record<string, string>) => Object.entries(record).map(([name, value]) => ({ name, value }));
  const { request, response, error } = exchange;
  const sent = request.body === undefined ? undefined : keptText(request.body, request.bodyBytes);
  const received = response ? keptText(response.body, response.bodyBytes) : undefined;
  let queryString: Array<{ name: string; value: string }> = [];
  try {
    queryString = [...new URL(request.url).searchParams].map(([name, value]) => ({ name, value }));
  } catch {
    // A URL the tool did not write (a client's, through the proxy) may not parse: no query string then.
  }
  return {
    startedDateTime: exchange.startedAt,
    time: exchange.durationMs,
    request: {
      method: request.method,
      url: request.url,
      httpVersion: 'HTTP/1.1',
      cookies: [],
      headers: headers(request.headers),
      queryString,
      ...(sent ? { postData: { mimeType: request.headers['content-type'] ?? 'application/octet-stream', text: sent.text, ...(sent.cut ? { comment: CUT } : {}) } } : {}),
      headersSize: -1,
      bodySize: request.bodyBytes ?? (request.body === undefined ? 0 : Buffer.byteLength(request.body)),
    },
    response: {
      status: response?.status ?? 0,
      statusText: response ? (STATUS_CODES[response.status] ?? '') : '',
      httpVersion: response ? (response.httpVersion ?? 'HTTP/1.1') : '',
      cookies: [],
      headers: headers(response?.headers ?? {}),
      content: {
        size: response?.bodyBytes ?? 0,
        mimeType: response?.headers['content-type'] ?? '',
        ...(received ? { text: received.text, ...(received.cut ? { comment: CUT } : {}) } : {}),
      },
      redirectURL: response?.headers.location ?? '',
      headersSize: -1,
      bodySize: response?.bodyBytes ?? -1,
    },
    cache: {},
    timings: { send: 0, wait: exchange.durationMs, receive: 0 },
    // HAR 1.2 `connection`: which connection carried the request.
    ...(exchange.connectionId ? { connection: exchange.connectionId } : {}),
    comment: [
      error ? `${exchange.checkId}: no response: ${error.code}: ${error.message}` : exchange.checkId,
      `${exchange.connection} connection`,
      ...(exchange.label ? [exchange.label] : []),
      ...(exchange.superseded ? [`superseded: ${exchange.superseded}`] : []),
    ].join('; '),
  };
}
