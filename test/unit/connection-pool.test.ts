/**
 * The client's connections (src/http/connection-pool.ts): a slot knows whether a request
 * goes out on a kept-alive connection or a new one (RFC 9112 §9.3), and heeds only the
 * events of its current dispatcher. Dispatchers are fakes that emit what undici's Agent does.
 */
import { EventEmitter } from 'node:events';
import { describe, expect, test } from 'vitest';
import { ConnectionPool, ConnectionSlot, type WatchedDispatcher } from '../../src/http/connection-pool.js';

/** A fake single-connection dispatcher: its events are emitted by the test. */
class FakeDispatcher extends EventEmitter {
  destroyed = false;
  async destroy(): Promise<void> {
    this.destroyed = true;
  }
}

function slotWithFakes() {
  const made: FakeDispatcher[] = [];
  const slot = new ConnectionSlot(3, () => {
    made.push(new FakeDispatcher());
    return made.at(-1) as unknown as WatchedDispatcher;
  });
  return { slot, made };
}

describe('a connection slot', () => {
  test('counts connections as its dispatcher opens and closes them', () => {
    const { slot, made } = slotWithFakes();
    let announced = 0;
    slot.onConnect(() => announced++);
    expect([slot.open, slot.connectionId]).toEqual([false, '3.1']);
    slot.dispatcher(false);
    made[0]!.emit('connect');
    made[0]!.emit('peerVersion', 'HTTP/1.0');
    expect([slot.open, slot.connectionId, slot.connects, slot.peerVersion, announced]).toEqual([true, '3.1', 1, 'HTTP/1.0', 1]);
    made[0]!.emit('disconnect');
    expect([slot.open, slot.connectionId, slot.connects]).toEqual([false, '3.2', 1]);
    made[0]!.emit('connect');
    expect([slot.open, slot.connectionId, slot.connects, slot.peerVersion, announced]).toEqual([true, '3.2', 2, undefined, 2]);
  });

  test('a fresh request on an open connection gets a new dispatcher; the old one is destroyed and no longer heard', () => {
    const { slot, made } = slotWithFakes();
    slot.dispatcher(false);
    made[0]!.emit('connect');
    expect(slot.dispatcher(false)).toBe(made[0]);
    const fresh = slot.dispatcher(true);
    expect([fresh, made[0]!.destroyed, slot.open]).toEqual([made[1], true, false]);
    made[0]!.emit('connect');
    made[0]!.emit('peerVersion', 'HTTP/1.0');
    expect([slot.open, slot.connects, slot.peerVersion]).toEqual([false, 1, undefined]);
    made[1]!.emit('connect');
    made[0]!.emit('disconnect');
    expect([slot.open, slot.connects]).toEqual([true, 2]);
  });

  test('counts the request heads written on its current dispatcher only: a request that did not see the count grow never left', () => {
    const { slot, made } = slotWithFakes();
    slot.dispatcher(false);
    made[0]!.emit('connect');
    expect(slot.written).toBe(0);
    made[0]!.emit('requestWritten');
    made[0]!.emit('requestWritten');
    expect(slot.written).toBe(2);
    slot.dispatcher(true);
    // near miss: the replaced dispatcher's late event is not counted
    made[0]!.emit('requestWritten');
    made[1]!.emit('requestWritten');
    expect(slot.written).toBe(3);
  });

  test('closed: its dispatcher destroyed, no connection open, the next request on a new one (connection 2)', async () => {
    const { slot, made } = slotWithFakes();
    slot.dispatcher(false);
    made[0]!.emit('connect');
    await slot.close();
    expect([made[0]!.destroyed, slot.open, slot.connectionId]).toEqual([true, false, '3.2']);
    expect(slot.dispatcher(false)).toBe(made[1]);
  });

  test('a connection closing after its answer (a HEAD’s) is no longer held, and a waiter learns when it has closed; a new connection is held again once answered', async () => {
    const { slot, made } = slotWithFakes();
    // No connection open: nothing to wait for.
    await expect(slot.closed()).resolves.toBeUndefined();
    slot.dispatcher(false);
    made[0]!.emit('connect');
    slot.noteAnswer();
    expect(slot.held).toBe(true);
    slot.noteClosing();
    expect([slot.open, slot.held]).toEqual([true, false]);
    let closed = false;
    const waiting = slot.closed().then(() => (closed = true));
    await Promise.resolve();
    expect(closed).toBe(false);
    made[0]!.emit('disconnect');
    await waiting;
    expect(closed).toBe(true);
    made[0]!.emit('connect');
    slot.noteAnswer();
    expect(slot.held).toBe(true);
    // Near miss: closing noted with no connection open changes nothing for the next.
    made[0]!.emit('disconnect');
    slot.noteClosing();
    made[0]!.emit('connect');
    slot.noteAnswer();
    expect(slot.held).toBe(true);
  });

  test('a refusal that may leave a body unread marks its connection only: a new connection holds no unread body, nor an answer yet', () => {
    const { slot, made } = slotWithFakes();
    slot.dispatcher(false);
    made[0]!.emit('connect');
    slot.noteAnswer();
    slot.noteBodyAnswered(true);
    expect([slot.mayHoldUnreadBody, slot.held]).toEqual([true, true]);
    made[0]!.emit('disconnect');
    expect([slot.mayHoldUnreadBody, slot.held]).toEqual([false, false]);
    made[0]!.emit('connect');
    expect([slot.mayHoldUnreadBody, slot.held]).toEqual([false, false]);
    // near miss: a refusal that judged the body (400) leaves nothing unread
    slot.noteBodyAnswered(false);
    expect(slot.mayHoldUnreadBody).toBe(false);
  });

  test('near miss: a fresh request when no connection is open keeps the dispatcher', () => {
    const { slot, made } = slotWithFakes();
    slot.dispatcher(false);
    expect(slot.dispatcher(true)).toBe(made[0]);
    expect(made).toHaveLength(1);
  });
});

describe('the pool', () => {
  test('a request takes the warmest idle slot; requests at once take one slot each', async () => {
    const pool = new ConnectionPool(3, () => new FakeDispatcher() as unknown as WatchedDispatcher);
    const one = await pool.use(async (slot) => slot.index);
    const again = await pool.use(async (slot) => slot.index);
    let release!: () => void;
    const held = new Promise<void>((resolve) => (release = resolve));
    const together = Promise.all([1, 2, 3].map(() => pool.use(async (slot) => (await held, slot.index))));
    release();
    expect([one, again, (await together).sort()]).toEqual([1, 1, [1, 2, 3]]);
    await pool.close();
  });

  test('a request takes the warmest idle slot with a connection open, before a warmer one whose connection closed', async () => {
    const made = new Map<number, FakeDispatcher>();
    const pool = new ConnectionPool(3, () => new FakeDispatcher() as unknown as WatchedDispatcher);
    const connect = (slot: ConnectionSlot) => {
      made.set(slot.index, slot.dispatcher(false) as unknown as FakeDispatcher);
      made.get(slot.index)!.emit('connect');
    };
    let release!: () => void;
    const held = new Promise<void>((resolve) => (release = resolve));
    // Three connections at once; slot 1 is freed last, so it is the warmest.
    const three = [1, 2, 3].map((i) => pool.use(async (slot) => (connect(slot), i === 1 ? await held : undefined, slot.index)));
    await Promise.all(three.slice(1));
    release();
    await three[0];
    expect(await pool.use(async (slot) => slot.index)).toBe(1);
    // Slot 1's connection closed by the target: slot 3, freed after slot 2, is the warmest with one open.
    made.get(1)!.emit('disconnect');
    expect(await pool.use(async (slot) => [slot.index, slot.open])).toEqual([3, true]);
    await pool.close();
  });

  test('a slot that holds no connection, discarded, closes nothing the target could still count', async () => {
    const pool = new ConnectionPool(2, () => new FakeDispatcher() as unknown as WatchedDispatcher);
    await pool.use(async (slot) => (slot.dispatcher(false), slot.discard()));
    expect(pool.unseenCloses).toBe(0);
    await pool.close();
  });

  /** A pool of `size` slots whose requests each hold their slot until released, and the order in which they got one. */
  function heldPool(size: number) {
    const pool = new ConnectionPool(size, () => new FakeDispatcher() as unknown as WatchedDispatcher);
    const started: string[] = [];
    const releases = new Map<string, () => void>();
    const request = (name: string, key: string) =>
      pool.use(async () => {
        started.push(name);
        await new Promise<void>((resolve) => releases.set(name, resolve));
      }, key);
    const release = async (name: string) => {
      releases.get(name)!();
      await new Promise((resolve) => setImmediate(resolve));
    };
    return { pool, started, request, release };
  }

  test('a freed slot goes to the waiting check with the fewest slots held, not to the longest waiting request', async () => {
    const { pool, started, request, release } = heldPool(2);
    // A property's inputs take both slots and queue three more; a sequence's next step arrives after them.
    const all = ['p1', 'p2', 'p3', 'p4', 'p5'].map((name) => request(name, 'property'));
    all.push(request('s1', 'sequence'));
    await new Promise((resolve) => setImmediate(resolve));
    expect(started).toEqual(['p1', 'p2']);
    await release('p1');
    expect(started).toEqual(['p1', 'p2', 's1']); // the property holds 1, the sequence 0
    await release('p2');
    expect(started).toEqual(['p1', 'p2', 's1', 'p3']); // 0 against 1 now: the property's turn
    for (const name of ['s1', 'p3', 'p4', 'p5']) await release(name);
    await Promise.all(all);
    await pool.close();
  });

  test('a limit the target showed holds as requests end: 4 slots, a limit of 2, never a third request on the wire', async () => {
    const { pool, started, request, release } = heldPool(4);
    expect(pool.limit.reset(2, pool.limit.epoch)).toBe(true);
    expect(pool.limit.current).toBe(2);
    const all = ['a', 'b', 'c', 'd'].map((name) => request(name, name));
    await new Promise((resolve) => setImmediate(resolve));
    expect([started, pool.inUse]).toEqual([['a', 'b'], 2]);
    await release('a');
    expect([started, pool.inUse]).toEqual([['a', 'b', 'c'], 2]);
    for (const name of ['b', 'c', 'd']) await release(name);
    await Promise.all(all);
    expect(pool.inUse).toBe(0);
    await pool.close();
  });

  test('near miss: checks holding as many slots take turns in the order they asked', async () => {
    const { pool, started, request, release } = heldPool(1);
    const all = [request('a1', 'a'), request('b1', 'b'), request('a2', 'a'), request('b2', 'b')];
    await new Promise((resolve) => setImmediate(resolve));
    for (const name of ['a1', 'b1', 'a2', 'b2']) await release(name);
    await Promise.all(all);
    expect(started).toEqual(['a1', 'b1', 'a2', 'b2']);
    await pool.close();
  });
});
