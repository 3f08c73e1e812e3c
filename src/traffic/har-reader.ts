/**
 * Reads a HAR 1.2 capture (http://www.softwareishard.com/blog/har-12-spec/) as a stream:
 * each entry is handed on as soon as it is parsed and then dropped, so a capture of a
 * gigabyte is read in the memory of one entry. Browsers ("save all as HAR with content"),
 * mitmproxy, Redocly's proxy, Playwright's `recordHar` and this tool's own
 * `exchanges.har` all write this shape.
 */
import { createReadStream } from 'node:fs';
import { open } from 'node:fs/promises';
import type { Readable } from 'node:stream';
import { createGunzip, createInflate } from 'node:zlib';
import chain from 'stream-chain';
import { parser } from 'stream-json';
import { pick } from 'stream-json/filters/pick.js';
import { streamValues } from 'stream-json/streamers/stream-values.js';
import { UsageError, hasCode } from '../core/errors.js';

/** A name/value pair of HAR's `headers`, `cookies` and `queryString`. */
export interface HarPair {
  name: string;
  value: string;
}

/** The parts of a HAR 1.2 entry the judge reads; every other field is ignored. */
export interface HarEntry {
  startedDateTime: string;
  /** Total time of the request, in ms (HAR: the sum of the timings, -1 excluded). */
  time: number;
  request: {
    method: string;
    url: string;
    headers: HarPair[];
    cookies?: HarPair[];
    /**
     * `text` is absent when the tool did not keep the body; `encoding` is HAR 1.2's
     * extension some tools use for base64; `params` what some writers keep instead of
     * `text` (chrome-har for a JSON or form body).
     */
    postData?: { mimeType?: string; text?: string; encoding?: string; params?: Array<{ name: string; value?: unknown }> };
    /** Body size in bytes, -1 when unknown. */
    bodySize?: number;
  };
  response: {
    /** 0 when no response arrived (browsers, this tool). */
    status: number;
    /** `HTTP/1.1`, `HTTP/1.0`, `h2`, `http/2.0` … as each writer spells it. */
    httpVersion?: string;
    headers: HarPair[];
    cookies?: HarPair[];
    /** `size`: the decoded body's length in bytes; `text` absent when not kept; `encoding: "base64"` for binary or compressed text. */
    content?: { size?: number; mimeType?: string; text?: string; encoding?: string };
    bodySize?: number;
  };
  comment?: string;
}

/** The capture's `log.creator`: this tool's own HARs show credentials as shell expressions of the key's variable. */
export interface HarCreator {
  name: string;
  version?: string;
}

/**
 * The bytes of a capture as a stream, inflated when the file is compressed: mitmproxy's
 * har_dump and savehar write `.zhar` files as zlib (RFC 1950), and a HAR may be gzipped.
 * Told by the first two bytes, whatever the file's name.
 * @throws the file system's error when the file cannot be opened.
 */
async function captureBytes(path: string): Promise<Readable[]> {
  const file = await open(path);
  const head = Buffer.alloc(2);
  try {
    await file.read(head, 0, 2, 0);
  } finally {
    await file.close();
  }
  const bytes = createReadStream(path);
  if (head[0] === 0x1f && head[1] === 0x8b) return [bytes, createGunzip()];
  // A zlib header: deflate (CM 8) and a check that makes the two bytes a multiple of 31.
  if ((head[0]! & 0x0f) === 8 && (head[0]! * 256 + head[1]!) % 31 === 0) return [bytes, createInflate()];
  return [bytes];
}

/**
 * The entries of one HAR file, in the file's order, each as soon as it is parsed.
 * @param onCreator called with `log.creator` when it is read (before the entries in every
 *   writer known: HAR 1.2 lists it first).
 * @throws UsageError when the file cannot be read or is not JSON (naming the file and,
 *   for JSON, the parser's reason); entries already handed on stay judged.
 */
export async function* readHarEntries(path: string, onCreator: (creator: HarCreator) => void = () => {}): AsyncGenerator<HarEntry> {
  let entries = 0;
  // HAR 1.2 requires log.version and log.creator: JSON with neither, and no entry, is no HAR.
  let harLog = false;
  let pipeline: ReturnType<typeof chain> | undefined;
  try {
    // stream-json keeps every character of a string (a U+FEFF inside a body included), and the number of values in flight bounded.
    pipeline = chain([...(await captureBytes(path)), parser(), pick({ filter: /^log\.(version|creator|entries\.\d+)$/ }), streamValues()]);
    for await (const { value } of pipeline as AsyncIterable<{ value: unknown }>) {
      const item = value as Partial<HarEntry> & Partial<HarCreator>;
      harLog = true;
      if (item && typeof item === 'object' && 'request' in item) {
        entries++;
        yield item as HarEntry;
      } else if (item && typeof item === 'object' && typeof item.name === 'string') {
        onCreator(item as HarCreator);
      }
    }
    if (!harLog) throw new UsageError(`the capture ${path} is not a HAR: no log.entries (a HAR 1.2 file holds {"log": {"version", "creator", "entries"}})`);
  } catch (error) {
    if (hasCode(error, 'PCS_USAGE')) throw error;
    const code = (error as NodeJS.ErrnoException).code;
    if (code) throw new UsageError(`cannot read the capture ${path}: ${code}`);
    throw new UsageError(`the capture ${path} is not a HAR file (JSON): ${String((error as Error).message ?? error).split('\n')[0]}, after ${entries} entries`);
  } finally {
    pipeline?.destroy();
  }
}
