/**
 * Reads a HAR 1.2 capture (http://www.softwareishard.com/blog/har-12-spec/) as a stream:
 * each entry is handed on as soon as it is parsed and then dropped, so a capture of a
 * gigabyte is read in the memory of one entry, itself bounded (bounded-tokens.ts). Browsers ("save all as HAR with content"),
 * mitmproxy, Redocly's proxy, Playwright's `recordHar` and this tool's own
 * `exchanges.har` all write this shape.
 */
import { countOf } from '../core/words.js';
import { once } from 'node:events';
import chain from 'stream-chain';
import { parser } from 'stream-json';
import { streamValues } from 'stream-json/streamers/stream-values.js';
import { SETTINGS } from '../config/settings.js';
import { UsageError, hasCode } from '../core/errors.js';
import { schemaErrors } from '../schema/validators.js';
import { CUT, TOKEN_WEIGHT, boundedTokens, isCut } from './bounded-tokens.js';
import { capturePieces, ReadingFailed } from './har-pieces.js';
import { HarSyntaxError, type HarMember } from './har-splitter.js';

/** A name/value pair of HAR's `headers`, `cookies` and `queryString`. */
export interface HarPair {
  name: string;
  /** Absent where a writer left it out (axios-har-tracker's Content-Type of a request without a body): read as empty. */
  value?: string;
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

/** Bounds of a capture's reading: the bodies of one entry, and so the entry (bytes). */
export interface HarReadOptions {
  /** Called with `log.creator` when it is read (before the entries in every writer known: HAR 1.2 lists it first). */
  onCreator?: (creator: HarCreator) => void;
  /** Stops the reading: the generator returns after the entry it is at. */
  signal?: AbortSignal;
  /** Largest body kept, in bytes (`--max-response-bytes`, and its default): a longer one is counted and left out. */
  maxBodyBytes?: number;
  /** Read the file in a thread of its own (default: a large file, har-pieces.ts). */
  thread?: boolean;
}

/** One entry of a capture, by its 1-based place: readable, or why not (`response.status is not an integer`). */
export type HarItem = { index: number; entry: HarEntry } | { index: number; problem: string };

/**
 * A capture that ends before its JSON does (a recorder killed, a size limit, a copy cut
 * short), or breaks in the middle: what came before was handed on; `entries` says how much.
 */
export class CaptureCut extends UsageError {
  constructor(
    readonly file: string,
    readonly entries: number,
    readonly reason: string,
  ) {
    super(`the capture ${file} ${reason}, after ${countOf(entries, 'entry', 'entries')}`);
  }
}

/** An error of the capture's reading (the file, inflating, parsing), as told from one of the tool's own: its cause says what it was. */
class ReadFailure extends Error {
  constructor(override readonly cause: unknown) {
    super();
  }
}

/**
 * The entries of one HAR file, in the file's order, each as soon as it is parsed, each
 * checked against the HAR 1.2 shape the judge reads (schemas/har-entry.schema.json): an
 * entry that does not fit is handed on as a problem, and the rest read on. Memory is one
 * entry's, bounded: a string or number past the body bound is left out ({@link CutValue}),
 * an entry past three bodies' worth is handed on as a problem.
 * @throws UsageError when the file cannot be read or is not a HAR (JSON that breaks
 *   before `{"log":`, or JSON without `log.entries`); {@link CaptureCut} when a HAR ends
 *   early or breaks after its start, once the whole entries its reads parsed were handed on.
 */
export async function* readHarEntries(path: string, options: HarReadOptions = {}): AsyncGenerator<HarItem> {
  let index = 0;
  // HAR 1.2 requires log.version and log.creator: JSON with neither, and no entry, is no HAR.
  let harLog = false;
  // Whether the file starts as a HAR does: one that breaks later is a HAR cut short.
  let harStart = false;
  let creatorSeen = false;
  const maxBody = options.maxBodyBytes ?? SETTINGS.maxResponseBytes.default;
  const bounds = harBounds(maxBody);
  /** A large value's streaming parse, under way. */
  let large: LargeValue | undefined;
  /** What a value of the capture makes of the reading: an item to hand on, or nothing. */
  const taken = (member: HarMember, value: unknown): HarItem | undefined => {
    if (member === 'other') return undefined;
    harLog = true;
    if (member === 'version') return undefined;
    if (member === 'creator') {
      if (!creatorSeen && typeof value === 'object' && value !== null && typeof (value as HarCreator).name === 'string') options.onCreator?.(value as HarCreator);
      creatorSeen = true;
      return undefined;
    }
    index++;
    const object = typeof value === 'object' && value !== null && !Array.isArray(value);
    const problem = object ? entryProblem(value, maxBody) : 'is not an object';
    return problem === undefined ? { index, entry: value as HarEntry } : { index, problem };
  };
  const batches = capturePieces(path, { wholeBytes: wholeBytesFor(bounds), signal: options.signal, thread: options.thread });
  try {
    for (;;) {
      // Only the reading's own errors are the capture's: a failure while an entry is handed on is the tool's.
      const step = await batches.next().catch((error: unknown) => {
        if (!(error instanceof ReadingFailed)) return Promise.reject(error);
        harStart = error.harStart;
        return Promise.reject(new ReadFailure(error.cause));
      });
      if (step.done || options.signal?.aborted) break;
      harStart = step.value.harStart;
      for (const piece of step.value.pieces) {
        let item: HarItem | undefined;
        if ('bytes' in piece) item = taken(piece.member, parsed(piece.bytes.toString('utf8')));
        else {
          if (piece.first) large = largeValue(piece.member, bounds);
          await large!.write(piece.part).catch((error: unknown) => Promise.reject(new ReadFailure(error)));
          if (piece.last) item = taken(piece.member, await large!.end().catch((error: unknown) => Promise.reject(new ReadFailure(error))));
        }
        if (item) yield item;
        if (options.signal?.aborted) return;
      }
    }
    if (options.signal?.aborted) return;
    if (!harLog) throw new UsageError(`the capture ${path} is not a HAR: no log.entries (a HAR 1.2 file holds {"log": {"version", "creator", "entries"}})`);
  } catch (thrown) {
    if (options.signal?.aborted) return;
    if (!(thrown instanceof ReadFailure)) throw thrown;
    const error = thrown.cause;
    if (hasCode(error, 'PCS_USAGE')) throw error;
    const code = (error as NodeJS.ErrnoException).code;
    if (code && !/^Z_/.test(code)) throw new UsageError(`cannot read the capture ${path}: ${code}`);
    const reason = String((error as Error).message ?? error).split('\n')[0]!;
    if (!harLog && !harStart) throw new UsageError(`the capture ${path} is not a HAR file (JSON): ${reason}`);
    // The file ended before its JSON did: it was cut; else it breaks where it stands.
    const cut = (error instanceof HarSyntaxError && error.atEnd) || code === 'Z_BUF_ERROR';
    throw new CaptureCut(path, index, cut ? 'ends before its JSON does' : `is not JSON past its start (${reason})`);
  } finally {
    await batches.return(undefined);
    large?.destroy();
  }
}

/** A value handed on whole, parsed: a JSON error is the capture's. */
function parsed(text: string): unknown {
  try {
    return JSON.parse(text);
  } catch (error) {
    throw new ReadFailure(error);
  }
}

/**
 * The largest value parsed whole (bytes): within it, no string or number passes the
 * value bound and no entry its weight (each token weighs at most 17 times its bytes:
 * bounded-tokens.ts), so `JSON.parse` gives what the bounded parse would. Past it, a value
 * is parsed as a stream, within those bounds.
 */
function wholeBytesFor(bounds: { valueChars: number; entryChars: number }): number {
  return Math.min(bounds.valueChars, Math.floor(bounds.entryChars / (TOKEN_WEIGHT + 1)), LARGEST_WHOLE_BYTES);
}

/** Values past this many bytes are parsed as streams whatever the bounds, so memory holds a few MiB of the file's text at most. */
const LARGEST_WHOLE_BYTES = 4 * 1024 * 1024;

/** A large value's streaming parse: its bytes written in order, then its value (an entry bounded as a whole, bounded-tokens.ts); anything but an entry, a creator or a version is only checked. */
interface LargeValue {
  write(bytes: Buffer): Promise<void>;
  /** @returns the value, once every byte was written; undefined for a value only checked. */
  end(): Promise<unknown>;
  destroy(): void;
}

/** Bytes written to a large value's parser at once (a file stream's read). */
const WRITE_BYTES = 64 * 1024;

function largeValue(member: HarMember, bounds: { valueChars: number; entryChars: number }): LargeValue {
  const kept = member !== 'other';
  // Keys, strings and numbers come in pieces, packed within bounds; stream-json keeps every character of a string (a U+FEFF inside a body included).
  const stream = chain([
    parser({ packKeys: false, packStrings: false, packNumbers: false, streamKeys: true, streamStrings: true, streamNumbers: true }),
    ...(kept ? [boundedTokens({ ...bounds, entryDepth: member === 'entry' ? 1 : Infinity }), streamValues()] : []),
  ]);
  let result: unknown;
  stream.on('data', (item: { value: unknown }) => void (kept && (result = item.value)));
  const ended = new Promise<unknown>((resolve, reject) => {
    stream.once('error', reject);
    stream.once('end', () => resolve(result));
  });
  ended.catch(() => {});
  return {
    async write(bytes) {
      // In slices of a file read's size: the parser turns each write into tokens at once, and
      // the 4 MB a value held before it was large would be a million of them held together.
      for (let at = 0; at < bytes.length; at += WRITE_BYTES) {
        if (!stream.write(bytes.subarray(at, at + WRITE_BYTES))) await Promise.race([once(stream, 'drain'), ended]);
      }
    },
    end() {
      stream.end();
      return ended;
    },
    destroy: () => stream.destroy(),
  };
}

/**
 * The bounds of a capture's reading for a body bound of `maxBody` bytes (characters): the
 * longest string or number kept, and an entry's weight, three bodies and 1 MiB of the rest
 * (bounded-tokens.ts).
 */
export function harBounds(maxBody: number): { valueChars: number; entryChars: number } {
  const valueChars = valueCharsFor(maxBody);
  return { valueChars, entryChars: 3 * valueChars + 1024 * 1024 };
}

/** The longest value read whole (characters): a body is at most its bytes as text, or 4 characters per 3 bytes in base64. */
const valueCharsFor = (maxBody: number) => Math.ceil(maxBody / 3) * 4 + 4;

/**
 * Why an entry cannot be judged, in words (`response.status is not an integer`), or
 * undefined when it has the shape the judge reads.
 */
function entryProblem(entry: unknown, maxBody: number): string | undefined {
  if (isCut(entry)) return `is larger than three bodies of --max-response-bytes ${maxBody} (${entry[CUT]} characters read): not read`;
  const [error] = schemaErrors('HarEntry', entry);
  if (!error) return undefined;
  const path = error.instancePath.split('/').slice(1).map((part, i) => (/^\d+$/.test(part) ? `[${part}]` : `${i > 0 ? '.' : ''}${part}`)).join('');
  const where = path === '' ? '' : `${path} `;
  const data = error.data;
  switch (error.keyword) {
    case 'required':
      return `${path === '' ? 'has' : `${path} has`} no ${(error.params as { missingProperty: string }).missingProperty}`;
    case 'type': {
      const type = String((error.params as { type: string | string[] }).type).split(',')[0]!;
      const found = isCut(data) ? `over ${valueCharsFor(maxBody)} characters` : typeof data === 'number' ? String(data) : data === null ? 'null' : Array.isArray(data) ? 'a list' : typeof data;
      return `${where}is not ${/^[aeiou]/.test(type) ? 'an' : 'a'} ${type} (found ${found})`;
    }
    case 'minimum':
    case 'maximum':
      return `${where}is out of range (found ${String(data)})`;
    case 'minLength':
      return `${where}is empty`;
    default:
      return `${where}${error.message ?? error.keyword}`;
  }
}
