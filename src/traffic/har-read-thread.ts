/**
 * The reading thread of a large capture (started by har-pieces.ts): reads the file it is
 * given, inflates and splits it, and posts the pieces in batches of {@link BATCH_BYTES},
 * never more than {@link BATCHES_AHEAD} ahead of the reader, which asks for each next one.
 * An error of the reading is posted after the batches before it, and ends the thread.
 */
import { parentPort, workerData } from 'node:worker_threads';
import { collectEvery } from '../core/collect-garbage.js';
import { HarSplitter, type HarPiece } from './har-splitter.js';
import { BATCH_BYTES, BATCHES_AHEAD, captureStreams, HarStart, packed, toReadError, type FromReadThread, type ReadThreadData, type ToReadThread } from './har-pieces.js';

/** Bytes read between two collections. */
const COLLECT_EVERY_BYTES = 16 * 1024 * 1024;

const data = workerData as ReadThreadData;
const port = parentPort!;

/** Batches the reader has room for. */
let room = BATCHES_AHEAD;
let roomMade: (() => void) | undefined;
/** Buffers the reader gave back, for the next batches. */
const spare: ArrayBuffer[] = [];
port.on('message', (message: ToReadThread) => {
  room++;
  spare.push(message.bytes);
  roomMade?.();
});

/**
 * Each read is a buffer outside V8's heap, and this thread makes little else that would
 * prompt a collection: collected every {@link COLLECT_EVERY_BYTES} read, the reads held
 * are bounded (without it, a judge's peak RSS rose by some 40 MB).
 */
const read = collectEvery(COLLECT_EVERY_BYTES);

const start = new HarStart();
let pieces: HarPiece[] = [];
let bytes = 0;

/** Hands on the pieces gathered, once the reader has room. */
async function send(): Promise<void> {
  while (room === 0) await new Promise<void>((resolve) => (roomMade = resolve));
  room--;
  const batch = packed({ pieces, harStart: start.seen }, spare);
  port.postMessage({ type: 'batch', batch } satisfies FromReadThread, [batch.bytes]);
  [pieces, bytes] = [[], 0];
}

function gather(found: HarPiece[]): void {
  for (const piece of found) {
    pieces.push(piece);
    bytes += 'bytes' in piece ? piece.bytes.length : piece.part.length;
  }
}

try {
  const streams = await captureStreams(data.file);
  const splitter = new HarSplitter(data.wholeBytes);
  try {
    for await (const chunk of streams.at(-1)!) {
      read((chunk as Buffer).length);
      gather(splitter.push(start.see(chunk as Buffer)));
      if (bytes >= BATCH_BYTES) await send();
    }
    gather(splitter.end());
    await send();
    port.postMessage({ type: 'end' } satisfies FromReadThread);
  } catch (error) {
    // What came before the break is the reader's too.
    if (pieces.length > 0) await send();
    port.postMessage({ type: 'failed', error: toReadError(error), harStart: start.seen } satisfies FromReadThread);
  } finally {
    streams.forEach((stream) => stream.destroy());
  }
} catch (error) {
  port.postMessage({ type: 'failed', error: toReadError(error), harStart: false } satisfies FromReadThread);
}
port.close();
