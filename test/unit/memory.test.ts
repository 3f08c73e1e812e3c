import { setImmediate as nextTurn } from 'node:timers/promises';
import { describe, expect, test } from 'vitest';
import { collectAfterLargeBodies, LARGE_BODY_BYTES } from '../../src/check/memory.js';
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
const heapMb = () => process.memoryUsage().heapUsed / MB;

describe('large bodies', () => {
  test('a capped body keeps none of the full body alive (a substring would pin its parent)', async () => {
    const kept: Exchange[] = [];
    const collect = async () => {
      collectAfterLargeBodies([answered(text(LARGE_BODY_BYTES))]); // asks for a full collection
      await nextTurn();
    };
    await collect();
    const before = heapMb();
    for (let i = 0; i < 4; i++) kept.push(withBodyCapped(answered(text(20 * MB))));
    await collect();
    expect(kept.every((exchange) => exchange.response!.body.length === RECORDED_BODY_CAP + '…[truncated]'.length)).toBe(true);
    expect(heapMb() - before).toBeLessThan(10); // the four 20 MB bodies are gone; their excerpts stay
  });

  test('after a check with a large body, its garbage is collected at once', async () => {
    let garbage: string[] | undefined = Array.from({ length: 8 }, () => text(10 * MB));
    expect(garbage.length).toBe(8);
    garbage = undefined;
    const before = heapMb();
    collectAfterLargeBodies([answered(text(LARGE_BODY_BYTES))]);
    await nextTurn();
    expect(before - heapMb()).toBeGreaterThan(60);
  });
});
