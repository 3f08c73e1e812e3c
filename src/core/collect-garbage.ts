import { setFlagsFromString } from 'node:v8';
import { runInNewContext } from 'node:vm';

let collect: (() => void) | undefined;

/**
 * A full garbage collection, now. V8 collects its large-object space (where every body
 * over about 1 MB lives) only when its heap has grown enough, so the garbage of a few
 * 16 MiB bodies can pile up to hundreds of MB before it does. `--expose-gc` is set at run
 * time, the way Jest's leak detector does.
 */
export function collectGarbage(): void {
  if (!collect) {
    setFlagsFromString('--expose-gc');
    collect = runInNewContext('gc') as () => void;
  }
  collect();
}

/**
 * A collection after every `everyBytes` bytes taken (memory outside V8's heap, such as
 * array buffers of bodies, which its own schedule collects late).
 * @param collect the collection (tests count calls).
 * @returns what counts the bytes taken, collecting once their sum reaches `everyBytes`.
 */
export function collectEvery(everyBytes: number, collect: () => void = collectGarbage): (bytes: number) => void {
  let since = 0;
  return (bytes) => {
    since += bytes;
    if (since < everyBytes) return;
    since = 0;
    collect();
  };
}
