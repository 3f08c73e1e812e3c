/**
 * The run's pace toward a target that refuses requests (429, 503 with Retry-After):
 * driven by a fake clock, so the assertions are about time as the pace sees it, never
 * about the machine's speed.
 */
import { describe, expect, test } from 'vitest';
import { AdaptivePace, DECREASE, MIN_RATE, type PaceClock } from '../../src/http/adaptive-pace.js';
import { maySendAgainUnasked, refusalOf, retryAfterMs } from '../../src/http/retry-policy.js';
import { waitedOut } from '../../src/traffic/rules.js';
import type { RecordedResponse } from '../../src/core/exchange.js';

/**
 * A clock that moves only when its timers fire: `sleep` queues a timer, and `drain`
 * fires them in time order until none is left (each firing moves the clock to it).
 */
function fakeClock(): PaceClock & { t: number; drain(): Promise<void> } {
  const timers: Array<{ at: number; fire: () => void }> = [];
  const clock = {
    t: 0,
    now: () => clock.t,
    sleep: (ms: number) => new Promise<void>((fire) => timers.push({ at: clock.t + ms, fire })),
    async drain() {
      // Bounded: each pass fires one timer, and the callers under test queue finitely many.
      for (let pass = 0; pass < 1000; pass++) {
        await new Promise((resolve) => setImmediate(resolve));
        if (timers.length === 0) return;
        timers.sort((a, b) => a.at - b.at);
        const next = timers.shift()!;
        clock.t = Math.max(clock.t, next.at);
        next.fire();
      }
    },
  };
  return clock;
}

const refusalWaitMs = (answer: RecordedResponse | undefined) => refusalOf(answer)?.waitMs;
const response = (status: number, headers: Record<string, string> = {}): RecordedResponse => ({ status, headers, body: '', bodyBytes: 0, utf8Valid: true });

describe('refusals', () => {
  test('a 429 is a refusal, with its Retry-After or a default wait', () => {
    expect(refusalWaitMs(response(429, { 'retry-after': '2' }))).toBe(2000);
    expect(refusalWaitMs(response(429))).toBe(1000);
  });

  test('a 503 is a refusal only with a Retry-After; other answers are not', () => {
    expect(refusalWaitMs(response(503, { 'retry-after': '1' }))).toBe(1000);
    expect(refusalWaitMs(response(503))).toBeUndefined();
    expect(refusalWaitMs(response(500, { 'retry-after': '1' }))).toBeUndefined();
    expect(refusalWaitMs(response(200))).toBeUndefined();
    expect(refusalWaitMs(undefined)).toBeUndefined();
  });

  test('one policy: the client and the traffic judge read a 503 alike, its Retry-After parsing or not', () => {
    for (const retryAfter of ['1', 'Sat, 21 Nov 2026 20:00:10 GMT', 'soon', '']) {
      const answer = response(503, { 'retry-after': retryAfter });
      expect(waitedOut(answer), retryAfter).toBe(refusalOf(answer) !== undefined);
    }
    expect(waitedOut(response(503, { 'retry-after': 'soon' }))).toBe(false);
  });

  test('sent again unasked after a failure: idempotent methods only (RFC 9110 §9.2.2)', () => {
    expect(['GET', 'head', 'PUT', 'DELETE', 'OPTIONS'].every(maySendAgainUnasked)).toBe(true);
    expect(['POST', 'PATCH'].some(maySendAgainUnasked)).toBe(false);
  });

  test('Retry-After is read as seconds or as an HTTP date', () => {
    expect(retryAfterMs('3')).toBe(3000);
    expect(retryAfterMs('Sat, 21 Nov 2026 20:00:10 GMT', Date.parse('Sat, 21 Nov 2026 20:00:00 GMT'))).toBe(10_000);
    expect(retryAfterMs('soon')).toBeUndefined();
    // A date already past asks for no wait, never a negative one.
    expect(retryAfterMs('Sat, 21 Nov 2026 19:59:50 GMT', Date.parse('Sat, 21 Nov 2026 20:00:00 GMT'))).toBe(0);
  });
});

describe('AdaptivePace', () => {
  test('is unpaced until the target refuses: ready() never waits', async () => {
    const clock = fakeClock();
    const pace = new AdaptivePace(30_000, undefined, clock);
    for (let i = 0; i < 100; i++) await pace.ready();
    expect(clock.t).toBe(0);
    expect(pace.rate).toBe(Infinity);
  });

  test('a refusal holds every request for its Retry-After, then lowers the rate to a fraction of what was accepted in the last second', async () => {
    const clock = fakeClock();
    const pace = new AdaptivePace(30_000, undefined, clock);
    for (let i = 0; i < 40; i++) pace.accepted();
    expect(pace.refused(0, 1000)).toEqual({ waitMs: 1000 });
    expect(pace.rate).toBeCloseTo(40 * DECREASE);
    const first = pace.ready();
    await clock.drain();
    await first;
    expect(clock.t).toBe(1000); // held back
    const second = pace.ready();
    await clock.drain();
    await second;
    expect(clock.t).toBeCloseTo(1000 + 1000 / (40 * DECREASE)); // then spaced
  });

  test('refusals of requests sent before the last decrease do not lower the rate again', () => {
    const clock = fakeClock();
    const pace = new AdaptivePace(30_000, undefined, clock);
    for (let i = 0; i < 40; i++) pace.accepted();
    clock.t = 10;
    pace.refused(5, 1000);
    const lowered = pace.rate;
    for (let i = 0; i < 15; i++) pace.refused(5, 1000); // the rest of the same burst
    expect(pace.rate).toBe(lowered);
    clock.t = 2000;
    pace.refused(1500, 1000); // sent at the new pace: lowers it again
    expect(pace.rate).toBeLessThan(lowered);
  });

  test('the edge: a request sent at the very instant of the last decrease is at the new pace; one sent a millisecond before is not', () => {
    const lowering = (sentAt: number) => {
      const clock = fakeClock();
      const pace = new AdaptivePace(30_000, undefined, clock);
      for (let i = 0; i < 40; i++) pace.accepted();
      clock.t = 10;
      pace.refused(5, 0); // the decrease, at t = 10
      const lowered = pace.rate;
      clock.t = 20;
      pace.refused(sentAt, 0);
      return pace.rate < lowered;
    };
    expect(lowering(10)).toBe(true);
    expect(lowering(9)).toBe(false);
  });

  test('"the last second": an answer accepted 999 ms before the refusal counts, one 1,000 ms before does not', () => {
    const loweredTo = (age: number) => {
      const clock = fakeClock();
      const pace = new AdaptivePace(30_000, undefined, clock);
      for (let i = 0; i < 30; i++) pace.accepted();
      clock.t = 5_000 - age;
      for (let i = 0; i < 20; i++) pace.accepted();
      clock.t = 5_000;
      pace.refused(5_000, 0);
      return pace.rate;
    };
    expect(loweredTo(999)).toBeCloseTo(20 * DECREASE);
    expect(loweredTo(1_000)).toBe(MIN_RATE);
  });

  test('additive increase: each accepted answer adds 1/rate, one request per second per second', () => {
    const clock = fakeClock();
    const pace = new AdaptivePace(30_000, undefined, clock);
    for (let i = 0; i < 10; i++) pace.accepted();
    pace.refused(0, 0);
    const start = pace.rate;
    for (let i = 0; i < Math.round(start); i++) pace.accepted();
    expect(pace.rate).toBeGreaterThan(start + 0.9);
    expect(pace.rate).toBeLessThan(start + 1.1);
  });

  test('the rate never falls below its floor', () => {
    const clock = fakeClock();
    const pace = new AdaptivePace(30_000, undefined, clock);
    for (let i = 0; i < 20; i++) {
      clock.t += 10;
      pace.refused(clock.t, 0);
    }
    expect(pace.rate).toBe(MIN_RATE);
  });

  test('concurrent callers are spaced one interval apart, not released together', async () => {
    const clock = fakeClock();
    const pace = new AdaptivePace(30_000, undefined, clock);
    for (let i = 0; i < 10; i++) pace.accepted();
    pace.refused(0, 0); // rate 9 per second
    const starts: number[] = [];
    const callers = Promise.all(
      Array.from({ length: 5 }, async () => {
        await pace.ready();
        starts.push(clock.t);
      }),
    );
    await clock.drain();
    await callers;
    expect(starts).toHaveLength(5);
    const gaps = starts.slice(1).map((t, i) => t - starts[i]!);
    for (const gap of gaps) expect(gap).toBeGreaterThanOrEqual(1000 / pace.rate - 1e-9);
  });

  test('patience: refusing every request for longer than it stops the run', () => {
    const clock = fakeClock();
    const pace = new AdaptivePace(5_000, undefined, clock);
    expect(pace.refused(0, 1000)).toEqual({ waitMs: 1000 });
    clock.t = 3_000;
    expect(pace.refused(2_500, 1000)).toEqual({ waitMs: 1000 });
    clock.t = 4_500;
    expect(pace.refused(4_000, 1000)).toMatchObject({ stop: expect.stringMatching(/refused every request .* past the run's patience of 5 s/) });
  });

  test('patience restarts with every accepted answer', () => {
    const clock = fakeClock();
    const pace = new AdaptivePace(5_000, undefined, clock);
    for (let step = 0; step < 20; step++) {
      clock.t += 1_000;
      expect(pace.refused(clock.t, 1000)).toEqual({ waitMs: 1000 });
      clock.t += 1_000;
      pace.accepted();
    }
  });

  test('a Retry-After longer than the patience stops the run at once', () => {
    const pace = new AdaptivePace(30_000, undefined, fakeClock());
    expect(pace.refused(0, 86_400_000)).toMatchObject({ stop: expect.stringMatching(/asked to wait 86400 s/) });
  });

  test('a stopped run ends every wait', async () => {
    const stop = new AbortController();
    let slept = 0;
    const clock: PaceClock = { now: () => 0, sleep: async () => void (slept++, stop.abort()) };
    const pace = new AdaptivePace(30_000, stop.signal, clock);
    pace.refused(0, 10_000);
    await pace.ready();
    expect(slept).toBe(1);
  });
});

describe('a 503 with Retry-After', () => {
  test('holds every request for its wait, and leaves the rate as it was', async () => {
    const clock = fakeClock();
    const pace = new AdaptivePace(30_000, undefined, clock);
    for (let i = 0; i < 40; i++) pace.accepted();
    expect(pace.refused(0, 1000, false)).toEqual({ waitMs: 1000 });
    expect(pace.rate).toBe(Infinity);
    const waiting = pace.ready();
    await clock.drain();
    await waiting;
    expect(clock.t).toBe(1000);
  });
});
