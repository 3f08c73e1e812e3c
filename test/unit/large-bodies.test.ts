/**
 * The reading of large bodies (src/http/body-reader.ts, src/http/large-body-leases.ts):
 * leases, giving way, read lanes and garbage collection, counted, never timed.
 */
import { once } from 'node:events';
import { connect, createServer, type AddressInfo, type Socket } from 'node:net';
import { setImmediate as nextTurn } from 'node:timers/promises';
import { describe, expect, test, vi } from 'vitest';
import { HEAP_FLOOR_BYTES, HEAP_GROWTH_BYTES, HeapPacer } from '../../src/core/heap-pacer.js';
import { BodyReader, BodyTooLarge, ECHO_SLACK_BYTES, GaveWay, PausableDeadline, responseCap } from '../../src/http/body-reader.js';
import { LARGE_BODIES_BUDGET_BYTES, LARGE_BODY_BYTES, LargeBodyLeases } from '../../src/http/large-body-leases.js';

const MiB = 2 ** 20;

/** A body of `bytes` bytes of `fill`, in 64 KiB chunks, that says whether it was given up. */
function body(bytes: number, fill = 0x20) {
  const state = { destroyed: false, chunks: 0 };
  const iterable: AsyncIterable<Buffer> = {
    [Symbol.asyncIterator]() {
      let sent = 0;
      return {
        next: async () => {
          if (sent >= bytes) return { done: true, value: undefined };
          const size = Math.min(64 * 1024, bytes - sent);
          sent += size;
          state.chunks++;
          return { done: false, value: Buffer.alloc(size, fill) };
        },
        return: async () => {
          state.destroyed = true;
          return { done: true, value: undefined };
        },
      };
    },
  };
  return { iterable, state };
}

const deadline = () => new PausableDeadline(60_000);

describe('large-body leases', () => {
  test('nobody waits until a large body is seen; then there are as many leases as the largest body fits in the budget', async () => {
    const leases = new LargeBodyLeases();
    expect(leases.limit).toBe(Infinity);
    await leases.admit('a');
    expect(leases.holders).toBe(0);
    const done = leases.large('a', 16 * MiB, false)!;
    expect(leases.limit).toBe(Math.floor(LARGE_BODIES_BUDGET_BYTES / (16 * MiB)));
    done(2 * MiB); // it was chunked, and shorter than the cap it was assumed to be
    expect(leases.limit).toBe(Math.floor(LARGE_BODIES_BUDGET_BYTES / (2 * MiB)));
  });

  test('as the budget says: 16 checks read at once while bodies stay at 2.5 MiB; a byte more and one fewer; two of 16 MiB', () => {
    const limitAfter = (bytes: number) => {
      const leases = new LargeBodyLeases();
      leases.large('a', bytes, false)!(bytes);
      return leases.limit;
    };
    expect(limitAfter(2.5 * MiB)).toBe(16);
    expect(limitAfter(2.5 * MiB + 1)).toBe(15);
    expect(limitAfter(16 * MiB)).toBe(2);
  });

  test('a check without a lease waits before it sends, until a lease is released', async () => {
    const leases = new LargeBodyLeases();
    leases.large('a', 20 * MiB, false)!(20 * MiB);
    expect(leases.limit).toBe(2);
    leases.large('b', 20 * MiB, false)!(20 * MiB);
    let admitted = false;
    void leases.admit('c').then(() => (admitted = true));
    await leases.admit('a'); // a holder sends at once
    await nextTurn();
    expect(admitted).toBe(false);
    leases.release('b');
    await nextTurn();
    expect(admitted).toBe(true);
    expect(leases.holders).toBe(2);
  });

  test('a wait ends when the run stops', async () => {
    const leases = new LargeBodyLeases();
    leases.large('a', LARGE_BODIES_BUDGET_BYTES, false)!(LARGE_BODIES_BUDGET_BYTES);
    const stop = new AbortController();
    let ended = false;
    void leases.admit('b', stop.signal).then(() => (ended = true));
    await nextTurn();
    expect(ended).toBe(false);
    stop.abort();
    await nextTurn();
    expect(ended).toBe(true);
    expect(leases.holders).toBe(1);
  });

  test('without a free lease, a GET gives way and a POST reads on over the limit', () => {
    const leases = new LargeBodyLeases();
    leases.large('a', LARGE_BODIES_BUDGET_BYTES, false);
    expect(leases.large('b', LARGE_BODIES_BUDGET_BYTES, false)).toBeUndefined();
    expect(leases.large('c', LARGE_BODIES_BUDGET_BYTES, true)).toBeTypeOf('function');
    expect(leases.holders).toBe(2);
  });
});

describe('the body reader', () => {
  test('decodes UTF-8 as it arrives; a body that is not UTF-8 keeps its size and first bytes only', async () => {
    const reader = new BodyReader(new HeapPacer(() => {}, () => 0));
    const owner = { owner: 'a', expected: 0, idempotent: true, cap: 16 * MiB };
    expect(await reader.read(body(3 * MiB, 0x61).iterable, deadline(), owner)).toEqual({ bytes: 3 * MiB, text: 'a'.repeat(3 * MiB) });
    const binary = await reader.read(body(3 * MiB, 0xff).iterable, deadline(), owner);
    expect(binary).toEqual({ bytes: 3 * MiB, preview: Buffer.alloc(48, 0xff) });
  });

  test('a body of exactly 1 MiB is small: nobody waits after it; a byte more is large', async () => {
    const reader = new BodyReader(new HeapPacer(() => {}, () => 0));
    const read = (bytes: number) => reader.read(body(bytes).iterable, deadline(), { owner: 'a', expected: bytes, idempotent: true, cap: 16 * MiB });
    await read(1024 * 1024);
    expect(reader.leases.limit).toBe(Infinity);
    await read(1024 * 1024 + 1);
    expect(reader.leases.limit).toBe(Math.floor(LARGE_BODIES_BUDGET_BYTES / (1024 * 1024 + 1)));
  });

  test('a large body read whole counts at its size, not the size expected (a chunked body expects the cap)', async () => {
    const reader = new BodyReader(new HeapPacer(() => {}, () => 0));
    await reader.read(body(2 * MiB).iterable, deadline(), { owner: 'a', expected: 16 * MiB, idempotent: true, cap: 16 * MiB });
    expect(reader.leases.limit).toBe(Math.floor(LARGE_BODIES_BUDGET_BYTES / (2 * MiB)));
  });

  test('a GET past 1 MiB without a lease stops reading, destroys its body and gives way', async () => {
    const reader = new BodyReader(new HeapPacer(() => {}, () => 0));
    reader.leases.large('holder', LARGE_BODIES_BUDGET_BYTES, false);
    const { iterable, state } = body(16 * MiB);
    await expect(reader.read(iterable, deadline(), { owner: 'other', expected: 16 * MiB, idempotent: true, cap: 16 * MiB })).rejects.toBeInstanceOf(GaveWay);
    expect(state.destroyed).toBe(true);
    expect(state.chunks * 64 * 1024).toBeLessThanOrEqual(LARGE_BODY_BYTES + 64 * 1024);
  });

  test('a body past its cap stops there and is destroyed; a Content-Length over the cap reads nothing', async () => {
    const reader = new BodyReader(new HeapPacer(() => {}, () => 0));
    const growing = body(4 * MiB);
    await expect(reader.read(growing.iterable, deadline(), { owner: 'a', expected: 2 * MiB, idempotent: false, cap: 2 * MiB })).rejects.toBeInstanceOf(BodyTooLarge);
    expect(growing.state).toEqual({ destroyed: true, chunks: 2 * 16 + 1 });
    const declared = body(4 * MiB);
    await expect(reader.read(declared.iterable, deadline(), { owner: 'a', expected: 4 * MiB, idempotent: false, cap: 2 * MiB })).rejects.toBeInstanceOf(BodyTooLarge);
    expect(declared.state).toEqual({ destroyed: false, chunks: 0 }); // the client aborts the request
  });

  test('the answer to a GET may fill the cap; any other echoes its body at most 8 times over, with slack', () => {
    expect(responseCap('GET', 0, 16 * MiB)).toBe(16 * MiB);
    // The slack: an Error's headers and body, an id (64 KiB).
    expect(ECHO_SLACK_BYTES).toBe(64 * 1024);
    expect(responseCap('POST', 0, 16 * MiB)).toBe(ECHO_SLACK_BYTES);
    expect(responseCap('POST', MiB, 16 * MiB)).toBe(ECHO_SLACK_BYTES + 8 * MiB);
    expect(responseCap('POST', 4 * MiB, 16 * MiB)).toBe(16 * MiB);
  });

  test('the heap is paced after a large read and, once large bodies were seen, before every request; never after small reads', async () => {
    let paced = 0;
    const reader = new BodyReader({ pace: () => void paced++, watch: () => {} } as unknown as HeapPacer);
    const read = (bytes: number) => reader.read(body(bytes).iterable, deadline(), { owner: 'a', expected: bytes, idempotent: true, cap: 16 * MiB });
    await reader.admit('a');
    await read(64 * 1024);
    expect(paced).toBe(0);
    await read(2 * MiB);
    expect(paced).toBe(1);
    await reader.admit('a');
    expect(paced).toBe(2);
  });
});

describe('the heap pacer', () => {
  test('collects when the heap in use passes the floor (64 MiB), then when it grew 32 MiB past what the last collection left', () => {
    // The figures docs/development.md measured (a 13 MB list judged at 258 MB peak).
    expect([HEAP_FLOOR_BYTES, HEAP_GROWTH_BYTES]).toEqual([64 * MiB, 32 * MiB]);
    let collections = 0;
    let heap = HEAP_FLOOR_BYTES;
    const pacer = new HeapPacer(() => void collections++, () => heap);
    pacer.pace();
    expect(collections).toBe(0);
    heap = HEAP_FLOOR_BYTES + 1; // and the collection frees nothing: 128 MiB are live
    pacer.pace();
    expect(collections).toBe(1);
    heap += HEAP_GROWTH_BYTES;
    pacer.pace();
    expect(collections).toBe(1);
    heap += 1;
    pacer.pace();
    expect(collections).toBe(2);
  });
});

describe('the heap pacer on watch (clock controlled)', () => {
  test('paces every period from the watch on, not a ms before; a second watch starts no second timer', () => {
    vi.useFakeTimers();
    try {
      let paced = 0;
      // A heap that grows past the bound between any two looks: every pace collects.
      let heap = HEAP_FLOOR_BYTES;
      const pacer = new HeapPacer(() => void paced++, () => (heap += 2 * HEAP_GROWTH_BYTES));
      pacer.watch(1_000);
      pacer.watch(1_000);
      vi.advanceTimersByTime(999);
      expect(paced).toBe(0);
      vi.advanceTimersByTime(1);
      expect(paced).toBe(1);
      vi.advanceTimersByTime(1_000);
      expect(paced).toBe(2);
    } finally {
      vi.useRealTimers();
    }
  });
});

describe('PausableDeadline: the time a request waits on the client itself is not the server\'s', () => {
  test('it runs out at its time, not a ms before; paused, it does not run; resumed, it runs out at what was left (clock controlled)', () => {
    vi.useFakeTimers({ toFake: ['setTimeout', 'clearTimeout', 'setImmediate', 'performance'] });
    try {
      const timed = new PausableDeadline(1_000);
      vi.advanceTimersByTime(400);
      timed.pause();
      vi.advanceTimersByTime(60_000);
      expect(timed.signal.aborted).toBe(false);
      timed.resume();
      vi.advanceTimersByTime(599);
      expect(timed.signal.aborted).toBe(false);
      vi.advanceTimersByTime(1);
      // Its timer ran; the decision waits for the loop's check phase, after what arrived is read.
      expect(timed.signal.aborted).toBe(false);
      vi.runOnlyPendingTimers();
      expect([timed.signal.aborted, (timed.signal.reason as DOMException).name]).toEqual([true, 'TimeoutError']);
      const cleared = new PausableDeadline(1_000);
      cleared.clear();
      vi.advanceTimersByTime(60_000);
      expect(cleared.signal.aborted).toBe(false);
    } finally {
      vi.useRealTimers();
    }
  });
});

describe('PausableDeadline: a deadline that passed while the thread was busy takes an answer already received, not a timeout', () => {
  test.each([
    [true, 'bytes waiting when the thread is free again: they are read first, and the deadline aborts nothing'],
    [false, 'near miss, nothing waiting: the deadline aborts on the same turn of the loop'],
  ])('%s: %s', async (waiting) => {
    const server = createServer((socket) => socket.on('error', () => {}));
    await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
    const client = connect((server.address() as AddressInfo).port, '127.0.0.1');
    const [peer] = (await once(server, 'connection')) as [Socket];
    try {
      await once(client, 'connect');
      if (waiting) await new Promise((resolve) => peer.write('answer', resolve));
      const deadline = new PausableDeadline(10);
      client.once('data', () => deadline.clear());
      // Busy past the deadline by the deadline's own clock, however loaded the machine: its timer is due when the loop runs again.
      const until = performance.now() + 20;
      while (performance.now() < until);
      await new Promise((resolve) => setTimeout(resolve, 0));
      await nextTurn();
      expect(deadline.signal.aborted).toBe(!waiting);
    } finally {
      client.destroy();
      peer.destroy();
      await new Promise((resolve) => server.close(resolve));
    }
  });
});

describe('a judging thread collects after every 16 MiB of bodies it takes (judging.ts)', () => {
  test('not a byte before; then again 16 MiB later', async () => {
    const { collectEvery } = await import('../../src/core/collect-garbage.js');
    const { COLLECT_EVERY_BYTES } = await import('../../src/traffic/judging.js');
    let collections = 0;
    const taken = collectEvery(COLLECT_EVERY_BYTES, () => void collections++);
    taken(16 * MiB - 1);
    expect(collections).toBe(0);
    taken(1);
    expect(collections).toBe(1);
    taken(16 * MiB - 1);
    expect(collections).toBe(1);
    taken(2);
    expect(collections).toBe(2);
  });
});
