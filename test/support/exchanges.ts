import type { Exchange, TransportErrorCode } from '../../src/core/exchange.js';

/** How a recorded exchange differs from a plain authorized `GET /v1/categories` sent by check `c`. */
export interface ExchangeShape {
  method?: string;
  /** Below the base URL: `/categories` by default. */
  path?: string;
  checkId?: string;
  credential?: string;
  requestBody?: unknown;
  headers?: Record<string, string>;
  utf8Valid?: boolean;
  superseded?: string;
  seq?: number;
}

let seq = 0;

/** A recorded exchange answered with `status` and `body` (a JSON value, or text as given). */
export function answered(status: number, body: unknown = '', shape: ExchangeShape = {}): Exchange {
  const text = typeof body === 'string' ? body : JSON.stringify(body);
  return {
    ...base(shape),
    response: {
      status,
      headers: { 'content-type': 'application/json', ...shape.headers },
      body: text,
      bodyBytes: Buffer.byteLength(text),
      utf8Valid: shape.utf8Valid ?? true,
    },
  };
}

/** A recorded exchange that got no response. */
export function unanswered(code: TransportErrorCode, shape: ExchangeShape = {}): Exchange {
  return { ...base(shape), error: { code, message: `${code.toLowerCase()} (a test)` } };
}

function base(shape: ExchangeShape): Omit<Exchange, 'response' | 'error'> {
  const body = shape.requestBody === undefined ? {} : { body: typeof shape.requestBody === 'string' ? shape.requestBody : JSON.stringify(shape.requestBody) };
  return {
    seq: shape.seq ?? ++seq,
    checkId: shape.checkId ?? 'c',
    credential: shape.credential ?? 'valid',
    request: { method: shape.method ?? 'GET', url: `http://127.0.0.1:9/v1${shape.path ?? '/categories'}`, headers: {}, ...body },
    startedAt: new Date(0).toISOString(),
    durationMs: 1,
    connection: 'fresh',
    ...(shape.superseded ? { superseded: shape.superseded } : {}),
  };
}

/**
 * Runs a judgement and says how it ended: `passed`, or the failure's expected and found.
 * For cases written as data: `{ description, exchange, outcome }`.
 */
export function judged(judge: () => unknown): 'passed' | { expected?: string; found?: string } {
  try {
    judge();
    return 'passed';
  } catch (error) {
    const deviation = (error as { deviation?: { expected: string; found: string }; code?: string }).deviation;
    if ((error as { code?: string }).code !== 'PCS_CHECK_FAILURE') throw error;
    return deviation ?? {};
  }
}
