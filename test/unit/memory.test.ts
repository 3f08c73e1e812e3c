import { describe, expect, test } from 'vitest';
import { collectGarbage } from '../../src/core/collect-garbage.js';
import { RECORDED_BODY_CAP, withBodyCapped, type Exchange } from '../../src/core/exchange.js';

const MB = 2 ** 20;
/** A string of `bytes` characters decoded as the client decodes a body (on the V8 heap). */
const text = (bytes: number) => new TextDecoder().decode(Buffer.alloc(bytes, 'a'));
const answered = (body: string): Exchange => ({
  seq: 1,
  checkId: 'list-ids-unique',
  credential: 'valid',
  connection: 'fresh',
  request: { method: 'GET', url: 'http://127.0.0.1/v1/categories', headers: {} },
  response: { status: 200, headers: {}, body, bodyBytes: body.length, utf8Valid: true },
  startedAt: new Date(0).toISOString(),
  durationMs: 1,
});
/** Bytes on the heap after a full collection: what is reachable, whatever V8's heuristics. */
const liveBytes = () => (collectGarbage(), process.memoryUsage().heapUsed);

describe('large bodies', () => {
  test('a capped body keeps none of the full body alive (a substring would pin its parent)', () => {
    const before = liveBytes();
    const kept = Array.from({ length: 4 }, () => withBodyCapped(answered(text(20 * MB))));
    expect(kept.every((exchange) => exchange.response!.body.length === RECORDED_BODY_CAP + '…[truncated]'.length)).toBe(true);
    // Pinned parents would be 80 MB; four excerpts are 0.5 MB.
    expect(liveBytes() - before).toBeLessThan(10 * MB);
  });
});
