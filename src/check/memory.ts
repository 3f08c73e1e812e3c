import { setFlagsFromString } from 'node:v8';
import { runInNewContext } from 'node:vm';
import type { Exchange } from '../core/exchange.js';

/** A response body from this size on (bytes) leaves enough garbage to collect at once. */
export const LARGE_BODY_BYTES = 4 * 1024 * 1024;

let collect: (() => void) | undefined;

/**
 * Asks V8 for a full garbage collection just after a check whose exchanges include a large
 * response body (a list of 30,000 categories or more). Judging a 13 MB list leaves about
 * 90 MB of garbage (bytes, text, parse tree, readings) that V8 would otherwise let pile up
 * over the next lists: four in a row took a run to 400 MB where one needs 260 MB. Normal
 * runs never get here. `--expose-gc` is set at run time, the way Jest's leak detector does.
 */
export function collectAfterLargeBodies(exchanges: readonly Exchange[]): void {
  if (!exchanges.some((exchange) => (exchange.response?.bodyBytes ?? 0) >= LARGE_BODY_BYTES)) return;
  if (!collect) {
    setFlagsFromString('--expose-gc');
    collect = runInNewContext('gc') as () => void;
  }
  // After the check has returned and its readings are unreachable.
  setImmediate(collect);
}
