import type { RunOutcome } from '../../src/runner/options.js';
import { KEY_PLACEHOLDER } from '../../src/secrets/redactor.js';

/** A request as a server received it: its method, its target (a path, or a whole URL) and its body's text (its first {@link HEARD_BODY_BYTES} bytes are enough). */
export interface Heard {
  method: string;
  url: string;
  body?: string;
}

/** The characters of a body that tell it apart, well inside the record's cap (RECORDED_BODY_CAP, 64 Ki). */
const TELLING_CHARS = 4096;

/** The bytes of a body a server needs to keep: {@link TELLING_CHARS} characters of 4 bytes at most. */
export const HEARD_BODY_BYTES = 4 * TELLING_CHARS;

/**
 * The requests a server received that a run's record does not hold (its preflight's probe,
 * then every exchange, superseded attempts included), one line each. Requests are told
 * apart by method, path and the first 100 ASCII characters of the body's start, the key
 * shown as the record shows it: a request abandoned before it left cannot make up for one
 * received and lost. ASCII alone, since a server may decode the rest badly (a character
 * cut by a chunk's edge) and still have received the request.
 */
export function missingFromRecord(heard: readonly Heard[], outcome: Pick<RunOutcome, 'report' | 'exchanges'>, apiKey: string): string[] {
  const identity = (request: Heard) =>
    `${request.method} ${new URL(request.url, 'http://target').pathname} ${(request.body ?? '').slice(0, TELLING_CHARS).replaceAll(apiKey, KEY_PLACEHOLDER).replace(/[^\x00-\x7f]/g, '').slice(0, 100)}`;
  const recorded = [...(outcome.report.preflight ? [outcome.report.preflight.request] : []), ...outcome.exchanges.map((exchange) => exchange.request)];
  const unmatched = new Map<string, number>();
  for (const key of recorded.map(identity)) unmatched.set(key, (unmatched.get(key) ?? 0) + 1);
  return heard.map(identity).filter((key) => {
    const left = unmatched.get(key) ?? 0;
    unmatched.set(key, left - 1);
    return left <= 0;
  });
}
