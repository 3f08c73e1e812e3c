/**
 * The run's own load is never the target's fault (src/http/load-policy.ts,
 * connection-limit.ts, connection-pool.ts): which failures the run's concurrency explains,
 * each edge beside its near miss; the limit found by measuring; the pool keeping to it.
 */
import { EventEmitter } from 'node:events';
import { describe, expect, test } from 'vitest';
import type { Exchange } from '../../src/core/exchange.js';
import { ConnectionLimit } from '../../src/http/connection-limit.js';
import { ConnectionPool, type ConnectionSlot, type WatchedDispatcher } from '../../src/http/connection-pool.js';
import { isConnectionFailure, loadCause, mayProbe, MAX_LIMIT_RESETS, RESETS_BEYOND_BURSTS, type LoadFacts } from '../../src/http/load-policy.js';
import { connectionsFor, REMOTE_READ_ONLY_CONNECTIONS } from '../../src/config/settings.js';

const failed = (code: NonNullable<Exchange['error']>['code'], connection: Exchange['connection'], phase: 'headers' | 'body' = 'headers'): Pick<Exchange, 'error' | 'connection'> => ({
  error: { code, message: code, phase },
  connection,
});
const facts = (change: Partial<LoadFacts> = {}): LoadFacts => ({ crowded: true, written: true, limitResets: 0, sentAgain: false, resetsInARow: 1, connections: 48, ...change });

describe('loadCause: what the run’s own load explains', () => {
  test.each([
    ['a new connection reset amid others', failed('CONNECTION_RESET', 'fresh'), facts(), 'limit'],
    ['a new connection refused amid others', failed('CONNECTION_REFUSED', 'fresh'), facts(), 'limit'],
    ['near miss: a new connection reset alone is the target’s answer', failed('CONNECTION_RESET', 'fresh'), facts({ crowded: false }), undefined],
    ['near miss: a held connection reset amid others (the stale race, decided elsewhere)', failed('CONNECTION_RESET', 'reused'), facts(), undefined],
    ['near miss: a reset mid-body is an answer cut short', failed('CONNECTION_RESET', 'fresh', 'body'), facts(), undefined],
    [`the ${MAX_LIMIT_RESETS}th reset of one written request is still the limit`, failed('CONNECTION_RESET', 'fresh'), facts({ limitResets: MAX_LIMIT_RESETS - 1 }), 'limit'],
    [`near miss: one more is the target’s answer`, failed('CONNECTION_RESET', 'fresh'), facts({ limitResets: MAX_LIMIT_RESETS }), undefined],
    ['a request never written is the limit however often it was reset (the target never saw it)', failed('CONNECTION_RESET', 'fresh'), facts({ limitResets: MAX_LIMIT_RESETS, written: false }), 'limit'],
    ['a streak of resets as long as two bursts of every connection and some', failed('CONNECTION_RESET', 'fresh'), facts({ resetsInARow: 2 * 48 + RESETS_BEYOND_BURSTS }), 'streak'],
    ['near miss: one short of the streak', failed('CONNECTION_RESET', 'fresh'), facts({ resetsInARow: 2 * 48 + RESETS_BEYOND_BURSTS - 1 }), 'limit'],
    ['no answer on a reused connection amid others', failed('TIMEOUT', 'reused'), facts(), 'unanswered-on-reused'],
    ['no answer on a reused connection with none other on the wire (an unread body left on it)', failed('TIMEOUT', 'reused'), facts({ crowded: false }), 'unanswered-on-reused'],
    ['near miss: no answer on a new connection', failed('TIMEOUT', 'fresh'), facts(), undefined],
    ['near miss: no answer again, when sent again', failed('TIMEOUT', 'reused'), facts({ sentAgain: true }), undefined],
    ['bytes where a status line belongs on a reused connection (a refused body left unread on it)', failed('INVALID_HTTP', 'reused'), facts({ crowded: false }), 'unanswered-on-reused'],
    ['near miss: the same on a new connection is the target’s answer', failed('INVALID_HTTP', 'fresh'), facts(), undefined],
    ['near miss: an answer whose body breaks HTTP on a reused connection is an answer', failed('INVALID_HTTP', 'reused', 'body'), facts(), undefined],
    ['near miss: invalid again, when sent again', failed('INVALID_HTTP', 'reused'), facts({ sentAgain: true }), undefined],
    ['an answer is no cause', { connection: 'fresh' as const }, facts(), undefined],
  ] as const)('%s: %s', (_what, exchange, state, cause) => expect(loadCause(exchange, state)).toBe(cause));

  test.each([
    ['CONNECTION_RESET', 'headers', true],
    ['CONNECTION_REFUSED', 'headers', true],
    ['CONNECTION_RESET', 'body', false],
    ['TIMEOUT', 'headers', false],
    ['CONNECT_TIMEOUT', 'headers', false],
  ] as const)('isConnectionFailure: %s in %s: %s', (code, phase, expected) => expect(isConnectionFailure({ error: { code, message: '', phase } })).toBe(expected));
});

describe('mayProbe: which requests may go out past the connections the target is known to hold', () => {
  const valid = { name: 'valid' };
  test.each([
    ['a list with the key', { method: 'GET', credential: valid }, 0, true],
    ['a create without a key (it must create nothing, 4.2/R3)', { method: 'POST', credential: { name: 'none' } }, 0, true],
    ['near miss: a create with the key (reset, it could not be sent again)', { method: 'POST', credential: valid }, 0, false],
    ['near miss: a create with the key in another spelling', { method: 'POST', credential: { name: 'valid-lowercase-scheme' } }, 0, false],
    ['near miss: a list already reset once for the limit', { method: 'GET', credential: valid }, 1, false],
  ] as const)('%s: %s', (_what, spec, taken, expected) => expect(mayProbe(spec as Parameters<typeof mayProbe>[0], taken)).toBe(expected));
});

describe('ConnectionLimit: found by measuring', () => {
  test('a reset lowers it to the connections the target held, one fewer at least; answers raise it one per round', () => {
    const limit = new ConnectionLimit(48);
    expect(limit.reset(8, limit.epoch)).toBe(true);
    expect(limit.current).toBe(8);
    for (let i = 0; i < 7; i++) limit.answered()(8);
    expect(limit.current).toBe(8);
    limit.answered()(8);
    expect(limit.current).toBe(9);
    // Held as many as the limit: one fewer.
    expect(limit.reset(20, limit.epoch)).toBe(true);
    expect(limit.current).toBe(8);
  });

  test('a reset of an attempt that started before the latest decrease lowers it no further', () => {
    const limit = new ConnectionLimit(48);
    const before = limit.epoch;
    limit.reset(10, before);
    expect(limit.reset(2, before)).toBe(false);
    expect(limit.current).toBe(10);
    expect(limit.reset(2, limit.epoch)).toBe(true);
    expect(limit.current).toBe(2);
  });

  test('never below one, never above the connections asked for', () => {
    const limit = new ConnectionLimit(3);
    limit.reset(0, limit.epoch);
    expect(limit.current).toBe(1);
    for (let i = 0; i < 100; i++) limit.answered()(1);
    expect(limit.current).toBe(3);
  });

  test('it says what it learnt once a reset was confirmed by an answer; before, nothing', () => {
    const limit = new ConnectionLimit(48);
    limit.answered()(5);
    limit.reset(8, limit.epoch);
    expect(limit.record()).toBeUndefined();
    limit.answered()(7);
    limit.confirmed(3);
    expect(limit.record()).toEqual({ resets: 3, mostHeld: 7, used: 7 });
  });
});

/** A fake single-connection dispatcher: the test connects it. */
class FakeDispatcher extends EventEmitter {
  async destroy(): Promise<void> {
    this.emit('disconnect');
  }
}

describe('the pool keeps to the limit', () => {
  test('after a reset, requests wait for the limit, and idle connections beyond it are closed', async () => {
    const made: FakeDispatcher[] = [];
    const pool = new ConnectionPool(4, () => {
      made.push(new FakeDispatcher());
      return made.at(-1) as unknown as WatchedDispatcher;
    });
    // Four requests open four connections; one of them carries an answer.
    const slots = await Promise.all(
      [0, 1, 2, 3].map((i) =>
        pool.use(async (slot) => {
          slot.dispatcher(false);
          made.at(-1)!.emit('connect');
          if (i === 1) pool.answered(slot);
          return slot;
        }),
      ),
    );
    expect(pool.open).toBe(4);
    // A reset while the target held one other connection: the limit falls to 1 and the idle ones beyond it close.
    pool.reset(slots[0]!, pool.limit.epoch);
    expect(pool.limit.current).toBe(1);
    expect(pool.open).toBe(1);
    // Two requests at once: the second waits for the first.
    const order: string[] = [];
    let release!: () => void;
    const first = pool.use(async () => {
      order.push('first starts');
      await new Promise<void>((resolve) => (release = resolve));
      order.push('first ends');
    });
    const second = pool.use(async () => void order.push('second starts'));
    await new Promise((resolve) => setImmediate(resolve));
    expect(pool.inUse).toBe(1);
    release();
    await Promise.all([first, second]);
    expect(order).toEqual(['first starts', 'first ends', 'second starts']);
  });
});

describe('othersOpen: whether other connections may count at the target, as a cap counts them', () => {
  /** A pool of `size` whose first `open` slots each hold an idle connection that carried an answer (the target holds it). */
  const pool = async (size: number, open: number) => {
    const made = new Map<ConnectionSlot, FakeDispatcher>();
    const p = new ConnectionPool(size, () => new FakeDispatcher() as unknown as WatchedDispatcher);
    await Promise.all(
      Array.from({ length: open }, () =>
        p.use(async (slot) => {
          made.set(slot, slot.dispatcher(false) as unknown as FakeDispatcher);
          made.get(slot)!.emit('connect');
          p.answered(slot);
          await new Promise((resolve) => setImmediate(resolve));
        }),
      ),
    );
    return { p, made };
  };

  test('near miss: a new connection with no other open, and none closed for it, is alone', async () => {
    const { p } = await pool(2, 0);
    expect(await p.use(async (slot) => (slot.dispatcher(true), [p.unseenCloses, p.othersOpen()]))).toEqual([0, false]);
  });

  test('near miss: an idle connection kept alive elsewhere does not count (a reset beside idle ones alone is the target’s answer)', async () => {
    const { p, made } = await pool(2, 2);
    // The warmest slot's connection closed by the target: a request on it opens a new one beside the idle other.
    const seen = await p.use(async (slot) => {
      made.get(slot)!.emit('disconnect');
      return [slot.open, p.unseenCloses, p.open, p.othersOpen()];
    });
    expect(seen).toEqual([false, 0, 1, false]);
  });

  test('another request on the wire counts', async () => {
    const { p } = await pool(2, 0);
    let release!: () => void;
    const first = p.use(() => new Promise<void>((resolve) => (release = resolve)));
    expect(await p.use(async () => p.othersOpen())).toBe(true);
    release();
    await first;
  });

  test('its own kept-alive connection, closed to renew it, counts: the close may reach the target after the new one, and a reset lowers the limit by it', async () => {
    const { p } = await pool(4, 3);
    await p.use(async (slot) => {
      slot.dispatcher(true);
      expect([p.unseenCloses, p.othersOpen()]).toEqual([1, true]);
      p.reset(slot, p.limit.epoch);
    });
    // Held by the target: the two others and the one closed to renew, not the two alone.
    expect(p.limit.current).toBe(3);
  });

  test('after a reset, the idle connection the target holds is taken, not a new one beside it', async () => {
    const { p, made } = await pool(2, 2);
    // The warmest slot's connection closed by the target, and the limit at 1; the other stays open, idle.
    await p.use(async (slot) => {
      made.get(slot)!.emit('disconnect');
      p.reset(slot, p.limit.epoch);
    });
    expect([p.limit.current, p.open]).toEqual([1, 1]);
    expect(await p.use(async (slot) => [slot.open, p.open, p.othersOpen()])).toEqual([true, 1, false]);
  });

  test('a close after an answer by rule (a HEAD’s, Connection: close) counts until the target shows it let it go', async () => {
    const { p, made } = await pool(2, 1);
    const [slot] = [...made.keys()] as [ConnectionSlot];
    slot.noteClosing();
    made.get(slot)!.emit('disconnect');
    expect([p.unseenCloses, p.othersOpen()]).toEqual([1, true]);
    // An answer on a connection opened after the close: the target let it go.
    await p.use(async (next) => {
      next.dispatcher(false);
      (next.dispatcher(false) as unknown as FakeDispatcher).emit('connect');
      p.answered(next);
    });
    expect([p.unseenCloses, p.othersOpen()]).toEqual([0, false]);
  });

  test('near miss: an answer on a connection opened before the close does not show it seen', async () => {
    const { p, made } = await pool(3, 2);
    const [first, second] = [...made.keys()] as [ConnectionSlot, ConnectionSlot];
    first.discard();
    p.answered(second);
    expect(p.unseenCloses).toBe(1);
  });

  test('a close the target may not have seen excuses every reset until a connection opened after it is answered (a loaded cap sees a FIN late)', async () => {
    const { p, made } = await pool(3, 1);
    [...made.keys()][0]!.discard();
    for (let reset = 0; reset < 3; reset++) await p.use(async (slot) => (expect(p.othersOpen()).toBe(true), p.reset(slot, p.limit.epoch)));
    expect(p.unseenCloses).toBe(1);
  });

  test('near miss: a connection the target closed of its own accord (an idle timeout) is not one it may still count', async () => {
    const { p, made } = await pool(2, 1);
    made.get([...made.keys()][0]!)!.emit('disconnect');
    expect(p.unseenCloses).toBe(0);
  });
});

describe('probes: past the most connections the target is known to hold, only a request that may be sent again', () => {
  test('the ceiling: the limit a reset lowered it to, raised by an answer while the target held more; none before a reset', async () => {
    const limit = new ConnectionLimit(8);
    expect(limit.ceiling).toBe(Infinity);
    limit.reset(1, limit.epoch);
    expect([limit.current, limit.ceiling]).toEqual([1, 1]);
    limit.answered()(1);
    expect([limit.current, limit.ceiling]).toEqual([2, 1]);
    limit.answered()(2);
    expect(limit.ceiling).toBe(2);
  });

  test('near miss: an answer counted after a later reset does not raise the ceiling it set', () => {
    const limit = new ConnectionLimit(8);
    limit.reset(3, limit.epoch);
    const record = limit.answered();
    limit.reset(1, limit.epoch);
    record(3);
    expect(limit.ceiling).toBe(1);
  });

  /** A pool at a ceiling of 1 and a limit of 2, one request on the wire; whether a second, `mayProbe` or not, starts beside it. */
  const startsBeside = async (mayProbe: boolean) => {
    const p = new ConnectionPool(4, () => new FakeDispatcher() as unknown as WatchedDispatcher);
    p.limit.reset(1, p.limit.epoch);
    p.limit.answered()(1);
    expect([p.limit.current, p.limit.ceiling]).toEqual([2, 1]);
    let release!: () => void;
    const first = p.use(() => new Promise<void>((resolve) => (release = resolve)));
    let started = false;
    const second = p.use(async () => void (started = true), 'other', mayProbe);
    await new Promise((resolve) => setImmediate(resolve));
    const beside = started;
    release();
    await Promise.all([first, second]);
    return [beside, started];
  };

  test('a request that may be sent again goes out as a probe', async () => expect(await startsBeside(true)).toEqual([true, true]));

  test('near miss: one that may not waits within the ceiling, and goes once there is room', async () => expect(await startsBeside(false)).toEqual([false, true]));
});

describe('the connections the target held, counted once its closes are seen', () => {
  /** Three slots, each with a connection that carried an answer, a limit met; then an answer on the third. */
  const heldAtAnswer = async (between: (made: FakeDispatcher[], slots: ConnectionSlot[]) => void) => {
    const made: FakeDispatcher[] = [];
    const p = new ConnectionPool(3, () => (made.push(new FakeDispatcher()), made.at(-1) as unknown as WatchedDispatcher));
    const slots: ConnectionSlot[] = [];
    let release!: () => void;
    const gate = new Promise<void>((resolve) => (release = resolve));
    const requests = [0, 1, 2].map(() =>
      p.use(async (slot) => {
        slots.push(slot);
        slot.dispatcher(false);
        made.at(-1)!.emit('connect');
        await gate;
      }),
    );
    await new Promise((resolve) => setImmediate(resolve));
    p.limit.reset(3, p.limit.epoch);
    p.limit.confirmed(1);
    for (const slot of slots.slice(0, 2)) p.answered(slot);
    p.answered(slots[2]!);
    between(made, slots);
    release();
    await Promise.all(requests);
    await p.counted();
    return p.limit.record()!.mostHeld;
  };

  test('near miss: none closed, all three held', async () => expect(await heldAtAnswer(() => {})).toBe(3));

  test('one the target closed, seen only after the answer was handled, is not counted (a cap of 8 read as 9 under load)', async () =>
    expect(await heldAtAnswer((made) => made[0]!.emit('disconnect'))).toBe(2));

  test('one the run closed itself after the answer (for room, to renew) was held when it came: counted', async () =>
    expect(await heldAtAnswer((_made, slots) => slots[0]!.discard())).toBe(3));
});

describe('connectionsFor: defaults that fit the target', () => {
  test.each([
    ['the embedded server, full', {}, undefined, 'full', 48],
    ['a loopback target, read-only', {}, 'http://127.0.0.1:8080/v1', 'read-only', 48],
    ['a remote target, read-only: 4', {}, 'https://api.example.com/v1', 'read-only', REMOTE_READ_ONLY_CONNECTIONS],
    ['near miss: a remote target, full', {}, 'https://api.example.com/v1', 'full', 48],
    ['a remote read-only target told otherwise', { connections: 12 }, 'https://api.example.com/v1', 'read-only', 12],
    ['--rate-limit 5: 5', { rateLimit: 5 }, undefined, 'full', 5],
    ['--rate-limit 4.5: 5', { rateLimit: 4.5 }, undefined, 'full', 5],
    ['--rate-limit 0.2: 1', { rateLimit: 0.2 }, undefined, 'full', 1],
    ['--rate-limit above what is asked: what is asked', { rateLimit: 100, connections: 8 }, undefined, 'full', 8],
    ['--rate-limit 5 on a remote read-only target: 4', { rateLimit: 5 }, 'https://api.example.com/v1', 'read-only', 4],
  ] as const)('%s', (_what, values, baseUrl, profile, expected) => expect(connectionsFor(values, baseUrl, profile)).toBe(expected));
});
