/**
 * readHarEntries (src/traffic/har-reader.ts) on its own: the creator told from an entry,
 * each entry's place and problem in words, what is no HAR, a capture cut short or broken
 * after its start, and a stop between entries. The judge's tests reach it with whole
 * captures; these hold each of its decisions beside its neighbour.
 */
import { mkdtemp, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { deflateSync, gzipSync } from 'node:zlib';
import { afterAll, beforeAll, beforeEach, describe, expect, test } from 'vitest';
import { buildIsCurrent } from '../../src/core/build-state.js';
import { CUT } from '../../src/traffic/bounded-tokens.js';
import { readHarEntries, type HarCreator, type HarItem } from '../../src/traffic/har-reader.js';
import { entry } from '../support/har.js';

let dir: string;
beforeAll(async () => {
  dir = await mkdtemp(join(tmpdir(), 'pcs-har-reader-'));
});
afterAll(() => rm(dir, { recursive: true, force: true }));

let files = 0;
/** A file holding `text` as it is. */
async function file(text: string | Buffer): Promise<string> {
  const path = join(dir, `${files++}.har`);
  await writeFile(path, text);
  return path;
}

/** The `log` of a HAR holding `entries` (JSON text), with `version` and `creator` first unless told. */
const harText = (entries: readonly unknown[], head = '"version":"1.2","creator":{"name":"WebInspector","version":"1"},') => `{"log":{${head}"entries":[${entries.map((e) => JSON.stringify(e)).join(',')}]}}`;

/** Whether the tests below read in a thread of their own (har-pieces.ts): each runs both ways. */
let thread = false;

/** Every item the reader hands on, the creators it reported, and what it threw. */
async function read(path: string, options: { maxBodyBytes?: number; signal?: AbortSignal } = {}) {
  const items: HarItem[] = [];
  const creators: HarCreator[] = [];
  let error: (Error & { entries?: number; reason?: string; code?: string }) | undefined;
  try {
    for await (const item of readHarEntries(path, { ...options, thread, onCreator: (creator) => creators.push(creator) })) items.push(item);
  } catch (thrown) {
    error = thrown as Error;
  }
  return { items, creators, error };
}

const problems = (items: readonly HarItem[]) => items.map((item) => ('problem' in item ? item.problem : 'ok'));
const good = entry({ status: 200, responseBody: '[]' });

/**
 * The reading thread runs compiled code, so its tests need a current build (`npm test`
 * builds first); with a source changed since (a mutation pass that does not build), the
 * thread would run other code than the source's, and its half is skipped.
 */
const threadRuns = buildIsCurrent();

/** Every test, with the capture read in this thread and in a thread of its own (har-pieces.ts): the same items, creators and errors. */
describe.each([
  ['read in this thread', false],
  ['read in a thread of its own', true],
])('%s', (_where, threaded) => {
  beforeAll(() => {
    thread = threaded;
  });
  beforeEach((context) => {
    if (threaded && !threadRuns) context.skip();
  });

  describe('the creator and the entries', () => {
    test('the version and the creator come first; the entries follow, numbered from 1', async () => {
      const { items, creators, error } = await read(await file(harText([good, good])));
      expect(error).toBeUndefined();
      expect(creators).toEqual([{ name: 'WebInspector', version: '1' }]);
      expect(items.map((item) => item.index)).toEqual([1, 2]);
      expect(problems(items)).toEqual(['ok', 'ok']);
    });

    test.each([
      ['the default, 16 MiB', 16 * 1024 * 1024, 22_369_628, 68_157_460],
      ['30 bytes', 30, 44, 1_048_708],
      ['near miss: 31 bytes (one more third of 3 bytes)', 31, 48, 1_048_720],
    ])('the bounds of a body bound of %s: the longest value kept, and an entry\'s weight (three of them and 1 MiB)', async (_what, maxBody, valueChars, entryChars) => {
      const { harBounds } = await import('../../src/traffic/har-reader.js');
      expect(harBounds(maxBody)).toEqual({ valueChars, entryChars });
    });

    test('the creator is told once: a second creator member (or one after the entries) is not; near misses: a creator without a name, and one that is no object, are not told', async () => {
      const twice = await read(await file(harText([good], '"creator":{"name":"first"},"creator":{"name":"second"},')));
      expect([twice.creators, twice.items.length]).toEqual([[{ name: 'first' }], 1]);
      const after = await read(await file('{"log":{"entries":[' + JSON.stringify(good) + '],"creator":{"name":"late"}}}'));
      expect([after.creators, after.items.length]).toEqual([[{ name: 'late' }], 1]);
      for (const creator of ['{"version":"1"}', '"WebInspector"']) expect((await read(await file(harText([good], `"creator":${creator},`)))).creators).toEqual([]);
    });

    test.each([
      ['gzip (1f 8b)', gzipSync],
      ['zlib (RFC 1950, as mitmproxy writes .zhar)', deflateSync],
    ])('a capture compressed with %s is inflated, whatever its name', async (_how, compress) => {
      const { items, error } = await read(await file(compress(harText([good, good]))));
      expect(error).toBeUndefined();
      expect(problems(items)).toEqual(['ok', 'ok']);
    });

    test('near miss: a gzip header with its second byte one less (1f 8a) is not inflated, and is no HAR', async () => {
      const bytes = gzipSync(harText([good]));
      bytes[1] = 0x8a;
      const { items, error } = await read(await file(bytes));
      expect(items).toEqual([]);
      expect(error?.message).toMatch(/is not a HAR/);
    });

    test('a HAR that starts with a line break and a carriage return is read as text: its first bytes are no zlib header', async () => {
      // 0x0a0d is a multiple of 31, as a zlib header's two bytes are; its method (the low 4 bits of 0x0a) is not deflate's 8.
      const { items, error } = await read(await file(`\n\r${harText([good])}`));
      expect(error).toBeUndefined();
      expect(problems(items)).toEqual(['ok']);
    });

    test('without version or creator, the entries are read all the same', async () => {
      const { items, creators } = await read(await file(harText([good], '')));
      expect(creators).toEqual([]);
      expect(problems(items)).toEqual(['ok']);
    });

    test('without a creator, a first entry with a name and a request is an entry, not the creator', async () => {
      const named = { ...good, name: 'not the creator' };
      const { items, creators } = await read(await file(harText([named], '"version":"1.2",')));
      expect(creators).toEqual([]);
      expect(problems(items)).toEqual(['ok']);
    });

    test.each([['request', { request: {} }], ['response', { response: {} }], ['startedDateTime', { startedDateTime: '2026-11-26T00:00:00Z' }]])('without a creator, a named object with a %s alone is an entry', async (_member, member) => {
      const { items, creators } = await read(await file(harText([{ name: 'x', ...member }], '"version":"1.2",')));
      expect(creators).toEqual([]);
      expect(items).toHaveLength(1);
    });

    test('a second creator-like object is an entry, and not one', async () => {
      const { items, creators } = await read(await file(harText([{ name: 'second' }])));
      expect(creators).toEqual([{ name: 'WebInspector', version: '1' }]);
      expect(items.map((item) => item.index)).toEqual([1]);
      expect(problems(items)).toEqual(['has no startedDateTime']);
    });

    test.each([
      ['a string', '"text"'],
      ['a number', '7'],
      ['a list', '[]'],
      ['null', 'null'],
    ])('an entry that is %s is not an object', async (_what, json) => {
      const path = await file(`{"log":{"version":"1.2","creator":{"name":"x"},"entries":[${json}]}}`);
      expect(problems((await read(path)).items)).toEqual(['is not an object']);
    });

    test('a string entry before any other value is not taken for the version when the version came', async () => {
      const path = await file('{"log":{"version":"1.2","entries":["1.2"]}}');
      expect(problems((await read(path)).items)).toEqual(['is not an object']);
    });
  });

  describe('an entry’s problem, in words', () => {
    const broken = (change: (e: Record<string, any>) => void) => {
      const e = structuredClone(good) as Record<string, any>;
      change(e);
      return e;
    };
    test.each([
      ['no request', (e: Record<string, any>) => delete e.request, 'has no request'],
      ['no request.url', (e: Record<string, any>) => delete e.request.url, 'request has no url'],
      ['a status as text', (e: Record<string, any>) => (e.response.status = '200'), 'response.status is not an integer (found string)'],
      ['a status of null', (e: Record<string, any>) => (e.response.status = null), 'response.status is not an integer (found null)'],
      ['a status as a list', (e: Record<string, any>) => (e.response.status = [200]), 'response.status is not an integer (found a list)'],
      ['a status with a fraction', (e: Record<string, any>) => (e.response.status = 200.5), 'response.status is not an integer (found 200.5)'],
      ['headers as an object', (e: Record<string, any>) => (e.request.headers = {}), 'request.headers is not an array (found object)'],
      ['a header without a name', (e: Record<string, any>) => delete e.request.headers[0].name, 'request.headers[0] has no name'],
    ])('%s: %s', async (_what, change, problem) => {
      expect(problems((await read(await file(harText([broken(change)])))).items)).toEqual([problem]);
    });

    test('a value cut at the bound is said by the bound: with --max-response-bytes 30, over 44 characters (the base64 of 30 bytes and 4)', async () => {
      const { items } = await read(await file(harText([broken((e) => (e.response.status = 's'.repeat(100)))])), { maxBodyBytes: 30 });
      expect(problems(items)).toEqual(['response.status is not an integer (found over 44 characters)']);
    });

    test('near miss: a header without its value (axios-har-tracker’s Content-Type of a GET) is no problem: it is read as empty', async () => {
      expect(problems((await read(await file(harText([broken((e: Record<string, any>) => delete e.request.headers[0].value)])))).items)).toEqual(['ok']);
    });
  });

  describe('the body bound', () => {
    // A body of 30 bytes at most: 4 characters per 3 bytes in base64, and 4 more: 44 characters.
    const withText = (chars: number) => entry({ status: 200, responseBody: 'x'.repeat(chars) });
    const text = (item: HarItem | undefined) => (item && 'entry' in item ? item.entry.response.content?.text : undefined);
    test('a body of exactly its bound in characters is kept; one more is counted and left out', async () => {
      const { items } = await read(await file(harText([withText(44), withText(45)])), { maxBodyBytes: 30 });
      expect(text(items[0])).toBe('x'.repeat(44));
      expect(text(items[1])).toEqual({ [CUT]: 45 });
    });

    test('an entry past three bodies’ worth (every token weighed) is not read, and the next one is; one of half that weight is', async () => {
      // Each header weighs 4 tokens of 16 characters at least: 64; the bound is 3 × 44 + 1 MiB.
      const withHeaders = (count: number) => ({ ...good, request: { ...(good as { request: object }).request, headers: Array.from({ length: count }, () => ({ name: 'a', value: 'b' })) } });
      const { items } = await read(await file(harText([withHeaders(20_000), withHeaders(10_000), good])), { maxBodyBytes: 30 });
      expect(problems(items)).toEqual([expect.stringMatching(/^is larger than three bodies of --max-response-bytes 30 \(\d+ characters read\): not read$/), 'ok', 'ok']);
    });

    test('three bodies, not two: with --max-response-bytes 300000 (400,004 characters of base64 each), an entry of some 1.94 million is read, one of 2.32 million is not', async () => {
      // Bound: 3 × 400,004 + 1 MiB = 2,248,588. Three values of 390,000 characters, and small headers of 64 each.
      const weighing = (small: number) => ({ ...good, request: { ...(good as { request: object }).request, headers: [...Array.from({ length: 3 }, (_, i) => ({ name: `big${i}`, value: 'v'.repeat(390_000) })), ...Array.from({ length: small }, () => ({ name: 'a', value: 'b' }))] } });
      const { items } = await read(await file(harText([weighing(12_000), weighing(18_000), good])), { maxBodyBytes: 300_000 });
      expect(problems(items)).toEqual(['ok', expect.stringMatching(/^is larger than three bodies of --max-response-bytes 300000 /), 'ok']);
    });
  });

  describe('what is no HAR, and a capture cut short', () => {
    test('JSON without log.entries is no HAR', async () => {
      const { error } = await read(await file('{"name":"package"}'));
      expect(error?.message).toBe(`the capture ${join(dir, `${files - 1}.har`)} is not a HAR: no log.entries (a HAR 1.2 file holds {"log": {"version", "creator", "entries"}})`);
    });

    test('not JSON from the start is no HAR file', async () => {
      const { error } = await read(await file('<html>not json</html>'));
      expect(error?.message).toMatch(/ is not a HAR file \(JSON\): /);
      expect(error).not.toHaveProperty('entries');
    });

    test('a capture that ends inside its JSON: every whole entry is handed on, then the cut with their count', async () => {
      const whole = harText([good, good, good]);
      const { items, error } = await read(await file(whole.slice(0, whole.lastIndexOf('{"startedDateTime"') + 40)));
      expect(items).toHaveLength(2);
      expect(error).toMatchObject({ entries: 2, reason: 'ends before its JSON does' });
    });

    test('a capture that breaks after a whole entry is not JSON past its start, once that entry was handed on', async () => {
      // The first entry lies within the file's first read (64 KiB), the break past it.
      const whole = harText([good, good]);
      const at = whole.lastIndexOf('{"startedDateTime"');
      const { items, error } = await read(await file(`${whole.slice(0, at)}${' '.repeat(70_000)}@@@${whole.slice(at)}`));
      expect(items).toHaveLength(1);
      expect(error).toMatchObject({ entries: 1 });
      // The byte named is the first that breaks it, counted from the file's start.
      expect(error?.reason).toBe(`is not JSON past its start (unexpected "@" at byte ${Buffer.byteLength(whole.slice(0, at)) + 70_000})`);
    });

    test.each([
      ['within the first read', ''],
      ['after a byte order mark', '\ufeff'],
      ['after whitespace', ' \n\t'],
    ])('a HAR that breaks %s is a capture cut short all the same, not a file that is no HAR', async (_where, before) => {
      const whole = harText([good, good]);
      const at = whole.lastIndexOf('{"startedDateTime"');
      const { items, error } = await read(await file(`${before}${whole.slice(0, at)}@@@${whole.slice(at)}`));
      expect(error?.reason).toMatch(/^is not JSON past its start \(/);
      expect(error?.entries).toBe(items.length);
    });

    test.each([
      ['another member first', '{"lag":{"entries":[@@@'],
      ['a list', '[{"log":@@@'],
      ['text', 'log: {@@@'],
    ])('near miss: JSON that breaks before it is a HAR (%s) is no HAR file', async (_what, text) => {
      const { error } = await read(await file(text));
      expect(error?.message).toMatch(/ is not a HAR file \(JSON\): /);
    });

    test('a missing file is a usage error naming it', async () => {
      const { error } = await read(join(dir, 'absent.har'));
      expect(error).toMatchObject({ code: 'PCS_USAGE' });
      expect(error?.message).toContain('absent.har');
    });
  });

  describe('a stop', () => {
    test('given before the reading, nothing is handed on and nothing thrown', async () => {
      const { items, error } = await read(await file(harText([good, good])), { signal: AbortSignal.abort() });
      expect(items).toEqual([]);
      expect(error).toBeUndefined();
    });

    test('given while an entry is handed on, the reading ends after it', async () => {
      const stop = new AbortController();
      const items: HarItem[] = [];
      for await (const item of readHarEntries(await file(harText([good, good, good])), { signal: stop.signal, thread })) {
        items.push(item);
        stop.abort();
      }
      expect(items).toHaveLength(1);
    });
  });
});

describe.skipIf(!threadRuns)('a capture read in a thread of its own', () => {
  test('many batches, and a value larger than a batch between smaller ones: the entries and their bodies as read in this thread', async () => {
    const { BATCH_BYTES } = await import('../../src/traffic/har-pieces.js');
    // Bodies of growing and shrinking size, one of them past a batch's buffer (a new one is made), then small again (a spare is reused).
    const sizes = [10, 300_000, 900_000, 2 * BATCH_BYTES, 50, 700_000, 1_200_000, 20, 400_000, 5];
    const entries = sizes.map((size, i) => entry({ status: 200, responseBody: JSON.stringify([{ id: i, name: 'x'.repeat(size) }]) }));
    const path = await file(harText([...entries, ...entries]));
    const bodies = (items: HarItem[]) => items.map((item) => ('entry' in item ? item.entry.response.content?.text?.length : item.problem));
    const inThisThread = await read(path);
    thread = true;
    const inItsOwn = await read(path).finally(() => (thread = false));
    expect(inThisThread.error).toBeUndefined();
    expect(bodies(inThisThread.items)).toHaveLength(2 * sizes.length);
    expect(bodies(inItsOwn.items)).toEqual(bodies(inThisThread.items));
    expect(inItsOwn.items).toEqual(inThisThread.items);
  });
});

/**
 * Every field the HAR entry schema requires, found by walking it (so a field made required
 * later is walked too), removed in turn from an entry that has them all: each entry is set
 * aside with the field named, and the entry beside it, whole, is read.
 */
describe('every required field of a HAR entry, missing in turn', () => {
  type SchemaNode = { required?: string[]; properties?: Record<string, SchemaNode>; items?: SchemaNode; $ref?: string; anyOf?: SchemaNode[] };
  const requiredPaths = async (): Promise<string[][]> => {
    const { readFile } = await import('node:fs/promises');
    const schema = JSON.parse(await readFile(new URL('../../schemas/har-entry.schema.json', import.meta.url), 'utf8')) as SchemaNode & { $defs: Record<string, SchemaNode> };
    const paths: string[][] = [];
    const walk = (node: SchemaNode, at: string[]) => {
      const resolved = node.$ref ? schema.$defs[node.$ref.replace('#/$defs/', '')]! : node;
      for (const field of resolved.required ?? []) if (!field.startsWith('__')) paths.push([...at, field]);
      for (const [name, child] of Object.entries(resolved.properties ?? {})) walk(child, [...at, name]);
      if (resolved.items) walk(resolved.items, [...at, '0']);
    };
    walk(schema, []);
    return paths;
  };
  // Every list holds one item, so that a field required of an item is there to remove.
  const full = () => ({ ...entry({ status: 201, method: 'POST', requestBody: '{"name":"a"}', responseBody: '{"id":1,"name":"a"}' }), request: { ...(entry({ status: 201 }).request as object), method: 'POST', cookies: [{ name: 'c', value: '1' }], postData: { mimeType: 'application/json', text: '{"name":"a"}', params: [{ name: 'name', value: 'a' }] } }, response: { ...(entry({ status: 201 }).response as object), cookies: [{ name: 'c', value: '1' }] } });
  const shown = (path: string[]) => path.slice(0, -1).map((part, i) => (/^\d+$/.test(part) ? `[${part}]` : `${i > 0 ? '.' : ''}${part}`)).join('');

  test('the walk finds the fields the judge cannot do without, and each pair’s name', async () => {
    const paths = (await requiredPaths()).map((path) => path.join('.'));
    expect(paths).toEqual(expect.arrayContaining(['startedDateTime', 'request', 'response', 'request.method', 'request.url', 'response.status', 'request.headers.0.name', 'response.headers.0.name']));
  });

  test('each missing: that entry is not read, said by the field; the whole entry after it is', async () => {
    const paths = await requiredPaths();
    // Near miss: with every field, no problem.
    expect(problems((await read(await file(harText([full()])))).items)).toEqual(['ok']);
    for (const path of paths) {
      const broken = structuredClone(full()) as Record<string, unknown>;
      const parent = path.slice(0, -1).reduce<Record<string, unknown>>((node, part) => node[part] as Record<string, unknown>, broken);
      delete parent[path.at(-1)!];
      const { items, error } = await read(await file(harText([broken, full()])));
      expect(error, path.join('.')).toBeUndefined();
      const where = shown(path);
      expect(problems(items), path.join('.')).toEqual([`${where === '' ? 'has' : `${where} has`} no ${path.at(-1)}`, 'ok']);
    }
  });
});

describe('how far into a file its HAR start is looked for (256 bytes)', () => {
  // `{"log":` after whitespace, then a break: a HAR cut short when the start lies within the first 256 bytes, no HAR file past them.
  const broken = (spaces: number) => `${' '.repeat(spaces)}{"log":{"entries":[@@@`;
  test('ending at byte 256: a capture that breaks past its start', async () => {
    const { error } = await read(await file(broken(256 - 7)));
    expect(error?.message).toMatch(/is not JSON past its start \(/);
  });
  test('near miss: ending at byte 257, no HAR file', async () => {
    const { error } = await read(await file(broken(257 - 7)));
    expect(error?.message).toMatch(/ is not a HAR file \(JSON\): /);
  });
});
