import { getHeapStatistics } from 'node:v8';
import { collectGarbage } from './collect-garbage.js';

/** Growth of the heap in use (bytes) since the last collection that asks for the next one. */
export const HEAP_GROWTH_BYTES = 32 * 1024 * 1024;

/** The heap in use (bytes) under which no collection is ever asked for. */
export const HEAP_FLOOR_BYTES = 64 * 1024 * 1024;

/**
 * Asks for a full garbage collection when the heap in use has grown
 * {@link HEAP_GROWTH_BYTES} past what the last one left (and is past
 * {@link HEAP_FLOOR_BYTES}). V8 collects its large-object space (every string over about
 * 1 MB) lazily; a run judging 16 MiB bodies otherwise piled up 1.5 GB of garbage.
 */
export class HeapPacer {
  #live = 0;
  #watch: NodeJS.Timeout | undefined;

  /**
   * @param collect a full garbage collection (tests count calls).
   * @param heapUsed the heap in use, in bytes.
   */
  constructor(
    private readonly collect: () => void = collectGarbage,
    private readonly heapUsed: () => number = () => getHeapStatistics().used_heap_size,
  ) {}

  /** Paces every `everyMs` ms from now on (an unref'd timer: it never keeps a run alive). */
  watch(everyMs: number): void {
    this.#watch ??= setInterval(() => this.pace(), everyMs).unref();
  }

  /** Collects when the heap has grown past the bound. */
  pace(): void {
    if (this.heapUsed() <= Math.max(HEAP_FLOOR_BYTES, this.#live + HEAP_GROWTH_BYTES)) return;
    this.collect();
    this.#live = this.heapUsed();
  }
}
