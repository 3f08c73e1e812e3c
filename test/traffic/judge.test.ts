/**
 * Judging captured traffic (src/traffic): each rule shown failing on a capture that breaks
 * it and passing on its near miss that does not; the capture's own shapes (base64,
 * compressed, cut short, left out, overlapping in time); its secrets never written.
 */
import { deflateRawSync, deflateSync, gzipSync } from 'node:zlib';
import { mkdtemp, readFile, readdir, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, test } from 'vitest';
import type { CheckResult } from '../../src/report/model.js';
import { Redactor } from '../../src/secrets/redactor.js';
import { violations } from '../../src/schema/validators.js';
import { PRINTED_FINDINGS_PER_CHECK, judgeCapture, judgeTraffic } from '../../src/traffic/judge-capture.js';
import { RECORDED_BODY_CAP, withBodyCapped } from '../../src/core/exchange.js';
import { harEntry } from '../../src/report/har.js';
import { capturedExchange } from '../../src/traffic/capture.js';
import { BASE, KEY, entry, error, writeHar, type EntrySpec } from '../support/har.js';
import { CHECKS } from '../support/checks.js';

let dir: string;
beforeAll(async () => void (dir = await mkdtemp(join(tmpdir(), 'pcs-traffic-'))));
afterAll(() => rm(dir, { recursive: true, force: true }));

let files = 0;
/** Judges these entries as one capture; the outcome of each check by id. */
async function judge(specs: readonly (EntrySpec | Record<string, unknown>)[], options: { apiKey?: string } = {}): Promise<Map<string, CheckResult> & { summary?: unknown }> {
  const path = await writeHar(dir, `capture-${++files}.har`, specs.map((spec) => ('status' in spec ? entry(spec as EntrySpec) : spec)));
  const { checks, summary } = await judgeTraffic({ checks: CHECKS, files: [path], baseUrl: BASE, ...options }, new Redactor());
  return Object.assign(new Map(checks.map((check) => [check.id, check])), { summary });
}

const created = (id: number, name: string, description?: string) => JSON.stringify({ id, name, ...(description !== undefined ? { description } : {}) });
const create = (body: object | string, status: number, responseBody: string, startMs = 0, timeMs = 10): EntrySpec => ({
  requestBody: typeof body === 'string' ? body : JSON.stringify(body),
  status,
  responseBody,
  startMs,
  timeMs,
});
const list = (items: object[], startMs = 0, timeMs = 10): EntrySpec => ({ status: 200, responseBody: JSON.stringify(items), startMs, timeMs });

describe('one exchange at a time, each rule with a capture that breaks it and one that does not', () => {
  test.each<[string, string, EntrySpec, EntrySpec]>([
    ['no-server-error', '4', create({ name: 'Cats' }, 500, error(500)), create({ name: 'Cats' }, 201, created(1, 'Cats'))],
    ['error-body-is-error', '7', create({}, 400, '{"error":"bad"}'), create({}, 400, error(400))],
    ['error-status-matches-http', '7', create({}, 400, error(422)), create({}, 400, error(400))],
    ['error-content-type-json', '7', { ...create({}, 400, error(400)), responseHeaders: { 'Content-Type': 'text/html' } }, create({}, 400, error(400))],
    ['success-content-type-json', '4', { ...list([]), responseHeaders: { 'Content-Type': 'text/plain' } }, list([])],
    ['answers-allowed-status', '4', create({ name: 'Cats' }, 200, created(1, 'Cats')), create({ name: 'Cats' }, 201, created(1, 'Cats'))],
    ['list-answers-200-array', '4.1', { status: 200, responseBody: '{"items":[]}' }, list([])],
    ['list-items-are-categories', '4.1', list([{ id: '1', name: 'Cats' }]), list([{ id: 1, name: 'Cats' }])],
    ['list-ids-unique', '2', list([{ id: 1, name: 'Cats' }, { id: 1, name: 'Dogs' }]), list([{ id: 1, name: 'Cats' }, { id: 2, name: 'Dogs' }])],
    ['create-valid-bodies', '4.2/R1', create({ name: 'Cats' }, 201, created(1, 'cats')), create({ name: 'Cats' }, 201, created(1, 'Cats'))],
    ['create-with-description', '4.2/R1', create({ name: 'Cats', description: 'Felines' }, 201, created(1, 'Cats')), create({ name: 'Cats', description: 'Felines' }, 201, created(1, 'Cats', 'Felines'))],
    ['create-unicode', '4.2/R1', create({ name: 'Chats 🐈' }, 201, created(1, 'Chats ??')), create({ name: 'Chats 🐈' }, 201, created(1, 'Chats 🐈'))],
    ['create-name-only', '4.2/R1', create({ name: 'Cats' }, 400, error(400)), create({ name: 'Cats' }, 201, created(1, 'Cats'))],
    ['create-rejects-missing-name', '4.2/R2', create({ description: 'x' }, 201, created(1, '')), create({ description: 'x' }, 400, error(400))],
    ['create-rejects-malformed-json', '4.2', create('{"name":', 201, created(1, 'x')), create('{"name":', 400, error(400))],
    ['create-rejects-wrong-type-name', '4.2', create({ name: 7 }, 201, created(1, '7')), create({ name: 7 }, 400, error(400))],
    ['create-rejects-invalid-bodies', '4.2', create({ name: 7 }, 201, created(1, '7')), create({ name: 7 }, 400, error(400))],
    ['create-rejects-missing-body', '4.2', create('', 201, created(1, 'x')), create('', 400, error(400))],
    ['create-ignores-client-id', '2', create({ id: 42, name: 'Cats' }, 201, created(42, 'Cats')), create({ id: 42, name: 'Cats' }, 201, created(1, 'Cats'))],
    ['create-401-missing', '4.2/R3', { ...create({}, 400, error(400)), authorization: null }, { ...create({}, 401, error(401)), authorization: null }],
    ['list-401-basic-scheme', '5/R2', { ...list([]), authorization: `Basic ${KEY}` }, { status: 401, responseBody: error(401), authorization: `Basic ${KEY}` }],
    ['auth-path-spellings', '5', { ...list([{ id: 1, name: 'Cats' }]), path: '/categories/', authorization: null }, { status: 401, responseBody: error(401), path: '/categories/', authorization: null }],
    ['path-spellings-no-server-error', '5', { status: 500, responseBody: '<h1>500</h1>', path: '/categories;x=1' }, { ...list([]), path: '/categories;x=1' }],
    ['auth-rejects-generated-credentials', '5/R2', { ...list([]), authorization: `Basic ${btoa(`${KEY}:`)}` }, { status: 401, responseBody: error(401), authorization: `Basic ${btoa(`${KEY}:`)}` }],
    ['pets-requires-auth', '5', { status: 200, responseBody: '{"id":1}', path: '/pets/1', authorization: null }, { status: 401, responseBody: error(401), path: '/pets/1', authorization: null }],
    ['orders-requires-auth', '5', { status: 200, responseBody: '[]', path: '/store/orders', authorization: null }, { status: 401, responseBody: error(401), path: '/store/orders', authorization: null }],
    ['unauthorized-has-challenge', '5', { status: 401, responseBody: error(401), authorization: null, responseHeaders: { 'WWW-Authenticate': 'Basic realm="x"' } }, { status: 401, responseBody: error(401), authorization: null }],
  ])('%s (%s)', async (id, _clause, breaking, nearMiss) => {
    const broken = (await judge([breaking])).get(id)!;
    expect(broken.status, JSON.stringify(broken)).toBe('failed');
    expect(broken.traffic).toEqual({ exchanges: 1, failures: 1, alone: true });
    expect(broken.failure?.message).toMatch(/^1 of 1 captured exchanges broke the rule; first, exchange #1: /);
    expect((await judge([nearMiss])).get(id)!.status).toBe('passed');
  });

  test.each([
    ['missing', '', 'create-rejects-missing-body', 'that is missing'],
    ['not JSON', '{"name":', 'create-rejects-malformed-json', 'that is not JSON'],
    ['not an object', '[]', 'create-rejects-non-object', 'that is not a JSON object'],
  ])('the words of a body %s accepted: the failure names it', async (_what, body, id, words) => {
    const message = (await judge([create(body, 201, created(1, 'x'))])).get(id)!.failure!.message;
    expect(message).toContain(`Expected status 400 (or 401 to a key the capture cannot verify) to a body ${words}, received 201`);
  });

  test('another spelling of the path is outside the interface: an HTML 404 or a 405 breaks no must rule, and the operation is not judged as the list', async () => {
    const spelled = [
      { status: 404, responseBody: '<h1>Not Found</h1>', path: '/./categories', authorization: null, responseHeaders: { 'Content-Type': 'text/html' } },
      { status: 405, responseBody: 'no', path: '/categories?', responseHeaders: { 'Content-Type': 'text/plain' } },
    ];
    const checks = await judge(spelled, { apiKey: KEY });
    expect([...checks.values()].filter((check) => check.status === 'failed').map((check) => check.id)).toEqual([]);
    expect(checks.get('list-answers-200-array')!.status).toBe('skipped');
    expect(checks.get('auth-path-spellings')!.status).toBe('passed');
    expect(checks.get('path-spellings-no-server-error')!.traffic).toEqual({ exchanges: 2, failures: 0, alone: true });
  });

  test('an empty array without a key on a spelling fails when the latest list with the key was empty too', async () => {
    const keyless = { ...list([]), path: '/categories/', authorization: null, startMs: 100 };
    expect((await judge([list([]), keyless], { apiKey: KEY })).get('auth-path-spellings')!.status).toBe('failed');
    expect((await judge([list([{ id: 1, name: 'Cats' }]), keyless], { apiKey: KEY })).get('auth-path-spellings')!.status).toBe('passed');
  });

  test('a spelling of the path on another origin is that origin\'s: counted as other, judged by no rule; near miss: on the interface\'s origin, judged', async () => {
    const open = { ...list([{ id: 1, name: 'Cats' }]), authorization: null };
    const elsewhere = await judge([{ ...open, url: 'https://other.example/v1/categories/' }]);
    expect([elsewhere.get('auth-path-spellings')!.status, (elsewhere.summary as { other: number }).other]).toEqual(['skipped', 1]);
    expect((await judge([{ ...open, path: '/categories/' }])).get('auth-path-spellings')!.status).toBe('failed');
  });

  test('a valid key answered 401 is judged only when the key is known; another token may be another client\'s key', async () => {
    const refusedKey = { status: 401, responseBody: error(401) };
    expect((await judge([refusedKey], { apiKey: KEY })).get('list-answers-200-array')!.status).toBe('failed');
    expect((await judge([refusedKey])).get('list-answers-200-array')!.status).toBe('skipped');
    const other = { ...list([]), authorization: 'Bearer some-other-client-key-0000' };
    expect((await judge([other], { apiKey: KEY })).get('list-401-unknown-key')!.status).toBe('skipped');
    const nearKey = { ...list([]), authorization: `Bearer ${KEY}x` };
    expect((await judge([nearKey], { apiKey: KEY })).get('list-401-key-char-added')!.status).toBe('failed');
  });

  test('a refusal a policy may make (a tab, a long name) and one to a key the capture cannot verify are no findings', async () => {
    const checks = await judge([{ ...create({ name: 'Cats\tand dogs' }, 400, error(400)), authorization: `Bearer ${KEY}` }, { ...create({ name: 'Cats' }, 401, error(401)), authorization: 'Bearer unknown-to-the-judge' }]);
    expect(checks.get('create-valid-bodies')!.status).toBe('skipped');
  });

  test('429 and 503 with Retry-After are waited out, not answers', async () => {
    const checks = await judge([{ ...list([]), status: 429 }, { ...list([]), status: 503, responseHeaders: { 'Retry-After': '1' } }]);
    expect(checks.get('no-server-error')!.status).toBe('skipped');
    expect(checks.get('answers-allowed-status')!.status).toBe('skipped');
  });
});

describe('across the capture, in time order', () => {
  test('a created category missing from a list that started after the create ended: create-listed fails; from an overlapping one: nothing', async () => {
    const overlapping = await judge([create({ name: 'Cats' }, 201, created(7, 'Cats'), 0, 100), list([], 50)]);
    expect(overlapping.get('create-listed')!.status).toBe('skipped');
    // The edge: a list that starts the instant the create ends is not after it (times are to the ms: they may overlap).
    const touching = await judge([create({ name: 'Cats' }, 201, created(7, 'Cats'), 0, 100), list([], 100)]);
    expect(touching.get('create-listed')!.status).toBe('skipped');
    const justAfter = await judge([create({ name: 'Cats' }, 201, created(7, 'Cats'), 0, 100), list([], 101)]);
    expect(justAfter.get('create-listed')!.status).toBe('failed');
    const after = await judge([create({ name: 'Cats' }, 201, created(7, 'Cats'), 0, 100), list([], 150)]);
    expect(after.get('create-listed')!.failure?.message).toMatch(/Expected id 7 .* not found/);
    const listed = await judge([create({ name: 'Cats' }, 201, created(7, 'Cats'), 0, 100), list([{ id: 7, name: 'Cats' }], 150)]);
    expect(listed.get('create-listed')!.status).toBe('passed');
  });

  test('an id given twice, or given after a list held it: create-ids-unique fails', async () => {
    const twice = await judge([create({ name: 'Cats' }, 201, created(7, 'Cats'), 0), create({ name: 'Dogs' }, 201, created(7, 'Dogs'), 100)]);
    expect(twice.get('create-ids-unique')!.status).toBe('failed');
    const reused = await judge([list([{ id: 7, name: 'Birds' }], 0), create({ name: 'Dogs' }, 201, created(7, 'Dogs'), 100)]);
    expect(reused.get('create-ids-unique')!.status).toBe('failed');
    const fresh = await judge([list([{ id: 7, name: 'Birds' }], 0), create({ name: 'Dogs' }, 201, created(8, 'Dogs'), 100), create({ name: 'Cats' }, 201, created(9, 'Cats'), 200)]);
    expect(fresh.get('create-ids-unique')!.status).toBe('passed');
  });

  test('a refused create that appears later: model-based-sequences fails; a category of the same name listed before the refusal does not count', async () => {
    const refusedThenListed = await judge([list([], 0), create({ name: 'Ghost' }, 400, error(400), 100), list([{ id: 3, name: 'Ghost' }], 200)]);
    expect(refusedThenListed.get('model-based-sequences')!.failure?.message).toMatch(/refused creates to stay absent, found id 3 .* exchange #2/);
    const alreadyThere = await judge([list([{ id: 3, name: 'Ghost' }], 0), create({ name: 'Ghost' }, 400, error(400), 100), list([{ id: 3, name: 'Ghost' }], 200)]);
    expect(alreadyThere.get('model-based-sequences')!.status).toBe('passed');
  });

  test('a create refused 401 without a key that appears later: model-based-sequences fails (nothing created without the key); near misses: a 400 to an invalid body, a list that does not show it', async () => {
    const keyless = (body: object, status: number, startMs: number): EntrySpec => ({ ...create(body, status, error(status), startMs), authorization: null });
    const stored = await judge([list([], 0), keyless({ name: 'Ghost' }, 401, 100), list([{ id: 3, name: 'Ghost' }], 200)]);
    expect(stored.get('model-based-sequences')!.failure?.message).toMatch(/refused creates to stay absent, found id 3 .* exchange #2/);
    expect((await judge([list([], 0), keyless({ name: 'Ghost' }, 401, 100), list([], 200)])).get('model-based-sequences')!.status).toBe('passed');
    expect((await judge([list([], 0), keyless({ description: 'no name' }, 401, 100), list([{ id: 3, name: 'Ghost' }], 200)])).get('model-based-sequences')!.status).toBe('skipped');
  });

  test.each([
    ['ends 1 ms before the list starts: ordered, judged', 111, 'failed'],
    ['near miss: ends the very ms the list starts: overlapping, never ordered', 110, 'skipped'],
  ])('a refused create that %s', async (_d, listStartMs, status) => {
    // The refusal starts at 100 and takes 10 ms.
    const checks = await judge([list([], 0), create({ name: 'Ghost' }, 400, error(400), 100), list([{ id: 3, name: 'Ghost' }], listStartMs)]);
    expect(checks.get('model-based-sequences')!.status).toBe(status);
  });
});

describe('what a capture holds and leaves out', () => {
  const list7 = JSON.stringify([{ id: 7, name: 'Cats' }]);

  test.each([
    ['gzip (1f 8b)', gzipSync, 1],
    ['zlib (78 9c: deflate, a multiple of 31)', deflateSync, 1],
    ['near miss: raw deflate has no header: read as it is, and it is no HAR', deflateRawSync, 'not a HAR'],
  ] as const)('a capture file compressed, told by its first two bytes whatever its name: %s', async (_d, compress, judged) => {
    const plain = await writeHar(dir, `compressed-${++files}.har`, [entry(list([]))]);
    const path = join(dir, `compressed-${files}.har`);
    await writeFile(path, compress(await readFile(plain)));
    const outcome = await judgeTraffic({ checks: CHECKS, files: [path], baseUrl: BASE }, new Redactor()).then(
      (traffic) => traffic.summary.judged,
      (error: Error) => (/is not a HAR/.test(error.message) ? 'not a HAR' : error.message),
    );
    expect(outcome).toBe(judged);
  });

  test('a body stored as base64, and one stored compressed (base64 of gzip), are judged as the text they hold', async () => {
    const base64 = { ...list([]), content: { size: Buffer.byteLength(list7), mimeType: 'application/json', text: Buffer.from(list7).toString('base64'), encoding: 'base64' } };
    const gzipped = gzipSync(Buffer.from(list7));
    const compressed = { ...list([]), responseHeaders: { 'Content-Encoding': 'gzip' }, content: { size: Buffer.byteLength(list7), mimeType: 'application/json', text: gzipped.toString('base64'), encoding: 'base64' } };
    for (const spec of [base64, compressed]) {
      const checks = await judge([create({ name: 'Cats' }, 201, created(7, 'Cats'), 0), { ...spec, startMs: 100 }]);
      expect(checks.get('list-items-are-categories')!.status).toBe('passed');
      expect(checks.get('create-listed')!.status).toBe('passed');
    }
  });

  test('a body left out (size known, or -1 as Playwright writes a body the page never read) is judged on what the exchange has, and counted missing', async () => {
    const checks = await judge([{ ...list([]), content: { size: 120, mimeType: 'application/json' } }, { ...list([]), content: { size: -1, mimeType: 'application/json' } }, { ...create({}, 401, error(401)), authorization: null, responseHeaders: { 'Content-Type': 'text/html' }, content: { size: 60, mimeType: 'text/html' } }]);
    expect(checks.get('list-items-are-categories')!.status).toBe('skipped');
    expect(checks.get('error-content-type-json')!.status).toBe('failed');
    expect(checks.get('create-401-missing')!.status).toBe('passed');
    expect(checks.summary).toMatchObject({ judged: 3, missing: { 'response body': 3 } });
  });

  test('a body cut short (its size past its text) is never judged as the server\'s JSON', async () => {
    const cut = list7.slice(0, 12);
    const checks = await judge([{ ...list([]), content: { size: Buffer.byteLength(list7), mimeType: 'application/json', text: cut } }]);
    expect(checks.get('list-answers-200-array')!.status).toBe('skipped');
    expect(checks.get('error-body-is-error')!.status).toBe('skipped');
    expect(checks.summary).toMatchObject({ missing: { 'response body': 1 } });
  });

  test('other origins, paths and methods (a CORS preflight) are counted and left alone', async () => {
    const checks = await judge([
      { ...list([]), url: 'https://cdn.example/app.js', status: 500 },
      { ...list([]), method: 'OPTIONS', status: 204 },
      { ...list([]), url: `${BASE}/categories/7`, status: 500 },
      list([{ id: 1, name: 'Cats' }]),
    ]);
    expect(checks.summary).toMatchObject({ entries: 4, judged: 1, other: 3 });
    expect(checks.get('no-server-error')!.status).toBe('passed');
  });

  test('an entry with no time to place it (a startedDateTime that is no date) is counted and left alone', async () => {
    const undated = { ...entry({ status: 500, responseBody: '<h1>500</h1>' }), startedDateTime: 'yesterday' };
    const checks = await judge([undated, list([])]);
    expect(checks.summary).toMatchObject({ entries: 2, judged: 1, other: 1 });
    expect(checks.get('no-server-error')!.status).toBe('passed');
  });

  test('as mitmproxy writes it: microsecond times with an offset, lower-case names, HTTP/2 pseudo-headers, base64 for a body it calls binary', async () => {
    const body = JSON.stringify([{ id: 5, name: 'Chats 🐈' }]);
    const mitm = entry(list([]));
    mitm.startedDateTime = '2026-11-24T10:00:00.123456+00:00';
    (mitm.request as { headers: Array<{ name: string; value: string }> }).headers = [
      { name: ':authority', value: 'petstore.example' },
      { name: 'authorization', value: `Bearer ${KEY}` },
    ];
    (mitm.response as { content: unknown }).content = { size: Buffer.byteLength(body), compression: 0, mimeType: 'application/json', text: Buffer.from(body).toString('base64'), encoding: 'base64' };
    const checks = await judge([mitm], { apiKey: KEY });
    expect(checks.get('list-items-are-categories')!.status).toBe('passed');
    expect(checks.get('list-answers-200-array')!.traffic).toMatchObject({ exchanges: 1 });
  });

  test('HTTP/2 pseudo-headers (a browser\'s capture) are no header fields', async () => {
    const h2 = entry(list([]));
    (h2.request as { headers: unknown[] }).headers.unshift({ name: ':authority', value: 'petstore.example' }, { name: ':method', value: 'GET' });
    const checks = await judge([h2]);
    expect(checks.get('list-answers-200-array')!.status).toBe('passed');
  });
});

describe('judge: the command\'s report, exit codes and secrets', () => {
  test('a capture with a broken rule is nonconformant (exit 1); its keys and cookies are in no report file', async () => {
    const cookie = 'session=cookie-secret-value-123456';
    const path = await writeHar(dir, 'secrets.har', [
      // The answer sets two cookies (a HAR joins Set-Cookie lines with a line break, as Chrome writes them).
      entry({ ...create({ name: 'Cats' }, 201, created(1, 'cats')), requestHeaders: { Cookie: cookie }, responseHeaders: { 'Set-Cookie': 'sid=set-cookie-secret-aaaa1111; Path=/\nlb=second-cookie-bbbb2222; HttpOnly' } }),
      entry({ ...list([]), authorization: 'Bearer other-client-token-abcdefgh' }),
    ]);
    const out = join(dir, 'secrets-report');
    let console = '';
    const outcome = await judgeCapture({ checks: CHECKS, files: [path], baseUrl: BASE, reportDir: out, formats: ['json', 'junit', 'html', 'md'], out: { write: (text: string) => ((console += text), true) } as never });
    expect(outcome.exitCode).toBe(1);
    expect(console).toMatch(/✗ must {3}create-valid-bodies #1 POST \/v1\/categories → 201: Expected the created category to have name "Cats"/);
    const written = await Promise.all((await readdir(out)).map((file) => readFile(join(out, file), 'utf8')));
    for (const secret of [KEY, 'cookie-secret-value-123456', 'other-client-token-abcdefgh', 'set-cookie-secret-aaaa1111', 'second-cookie-bbbb2222']) {
      for (const text of [...written, console]) expect(text).not.toContain(secret);
    }
    expect(written.join('')).toContain('[capture-credential-1]');
    expect(violations('Report', JSON.parse(await readFile(join(out, 'report.json'), 'utf8')))).toEqual([]);
  });

  test('a rule broken by many exchanges prints its first findings, then one line; the report counts them all', async () => {
    const path = await writeHar(dir, 'many.har', Array.from({ length: 15 }, (_, i) => entry({ ...list([]), authorization: null, startMs: i * 10 })));
    let console = '';
    const outcome = await judgeCapture({ checks: CHECKS, files: [path], baseUrl: BASE, reportDir: null, formats: ['json'], out: { write: (text: string) => ((console += text), true) } as never });
    expect(console.match(/✗ must {3}list-401-missing #/g)).toHaveLength(PRINTED_FINDINGS_PER_CHECK);
    expect(console).toContain('… list-401-missing: further findings are counted in the report, not printed');
    expect(outcome.report.checks.find((check) => check.id === 'list-401-missing')!.traffic).toEqual({ exchanges: 15, failures: 15, alone: true });
  });

  test('the summary is coloured only when asked (a terminal): --color, never by default', async () => {
    const path = await writeHar(dir, 'colour.har', [entry({ ...list([]), authorization: null })]);
    const printed = async (color?: boolean) => {
      let text = '';
      await judgeCapture({ checks: CHECKS, files: [path], baseUrl: BASE, reportDir: null, formats: ['json'], out: { write: (chunk: string) => ((text += chunk), true) } as never, ...(color === undefined ? {} : { color }) });
      return text.includes('\x1b[');
    };
    expect([await printed(true), await printed(false), await printed()]).toEqual([true, false, false]);
  });

  test('a conformant capture says what it covered; a capture of another target is exit 3, naming where its traffic went', async () => {
    const path = await writeHar(dir, 'fine.har', [entry(list([]))]);
    const fine = await judgeCapture({ checks: CHECKS, files: [path], baseUrl: BASE, reportDir: null, formats: ['json'], out: null });
    expect(fine.exitCode).toBe(0);
    expect(fine.report.headline).toMatch(/^CONFORMANT on what the capture shows: \d+ of \d+ must checks judged, \d+ untested$/);
    const elsewhere = await judgeCapture({ checks: CHECKS, files: [path], baseUrl: 'https://other.example/v1', reportDir: null, formats: ['json'], out: null });
    expect(elsewhere.exitCode).toBe(3);
    expect(elsewhere.report.verdictReason).toMatch(/no exchange of the interface at https:\/\/other.example\/v1 among the 1 entry of the capture; they went to https:\/\/petstore.example\/v1 \(1\): check --base-url/);
  });

  test('where a capture of another target went: the three bases it went to most, most first', async () => {
    const to = (origin: string, n: number) => Array.from({ length: n }, () => entry({ ...list([]), url: `${origin}/v1/categories` }));
    const path = await writeHar(dir, 'elsewhere.har', [...to('https://a.example', 1), ...to('https://b.example', 3), ...to('https://c.example', 2), ...to('https://d.example', 4)]);
    const { report } = await judgeCapture({ checks: CHECKS, files: [path], baseUrl: 'https://other.example/v1', reportDir: null, formats: ['json'], out: null });
    expect(report.verdictReason).toContain('among the 10 entries of the capture; they went to https://d.example/v1 (4), https://b.example/v1 (3), https://c.example/v1 (2): check --base-url');
  });

  test('ten bases are tallied, no more (a capture of a whole browsing session stays small); near miss: the tenth is', async () => {
    const to = (origin: string, n: number) => Array.from({ length: n }, () => entry({ ...list([]), url: `${origin}/v1/categories` }));
    const first = Array.from({ length: 9 }, (_, i) => to(`https://o${i}.example`, 1)).flat();
    const said = async (late: string) => (await judgeCapture({ checks: CHECKS, files: [await writeHar(dir, `${late}.har`, [...first, ...to(`https://${late}.example`, 5), ...to('https://late.example', 6)])], baseUrl: 'https://other.example/v1', reportDir: null, formats: ['json'], out: null })).report.verdictReason;
    // The 10th base seen is tallied and named first; the 11th, with more, is never tallied.
    expect(await said('tenth')).toContain('they went to https://tenth.example/v1 (5), https://o0.example/v1 (1)');
  });

  test('a file that is not HAR is a usage error; one cut short after some entries is judged as far as it goes', async () => {
    const notHar = join(dir, 'not.har');
    await writeFile(notHar, 'hello');
    await expect(judgeTraffic({ checks: CHECKS, files: [notHar], baseUrl: BASE }, new Redactor())).rejects.toMatchObject({ code: 'PCS_USAGE', message: expect.stringMatching(/is not a HAR file/) });
    const whole = await readFile(await writeHar(dir, 'whole.har', [entry(list([])), entry(list([]))]), 'utf8');
    const cut = join(dir, 'cut.har');
    await writeFile(cut, whole.slice(0, whole.length - 40));
    const judged = await judgeTraffic({ checks: CHECKS, files: [cut], baseUrl: BASE }, new Redactor());
    expect(judged.summary.judged).toBeGreaterThanOrEqual(1);
    expect(judged.summary.truncated).toEqual([{ file: cut, entries: 1, reason: 'ends before its JSON does' }]);
    expect(judged.notices.join()).toMatch(/ends before its JSON does: judged up to its last whole entry \(1 entries\)/);
  });
});

describe('a capture read within bounds', () => {
  test('with --max-response-bytes 1024, a body string of 1,372 characters (the base64 of 1 KiB) is judged; of 1,373, not kept, said why', async () => {
    const list = (chars: number) => `[{"id":1,"name":"${'n'.repeat(chars - 20)}"}]`;
    const path = await writeHar(dir, 'bounded.har', [entry({ status: 200, responseBody: list(1_373) }), entry({ status: 200, responseBody: list(1_372), startMs: 50 })]);
    const { summary } = await judgeTraffic({ checks: CHECKS, files: [path], baseUrl: BASE, maxBodyBytes: 1024 }, new Redactor());
    expect(summary.dropped).toEqual([{ exchange: 1, body: 'response body', reason: 'not kept: 1373 characters, larger than --max-response-bytes' }]);
    expect(summary.missing).toEqual({ 'response body': 1 });
  });

  test('two entries each within the bound of one entry, together past it: both read (the bound is per entry)', async () => {
    const headers = Object.fromEntries(Array.from({ length: 1_000 }, (_, i) => [`x-h${i}`, 'v'.repeat(600)]));
    const path = await writeHar(dir, 'wide.har', [entry({ status: 200, responseBody: '[]', requestHeaders: headers }), entry({ status: 200, responseBody: '[]', requestHeaders: headers, startMs: 50 })]);
    const { summary } = await judgeTraffic({ checks: CHECKS, files: [path], baseUrl: BASE, maxBodyBytes: 1024 }, new Redactor());
    expect(summary.invalid).toBeUndefined();
    expect(summary.judged).toBe(2);
  });

  test('101 entries of an odd shape: all counted, the first 100 named, the rest judged', async () => {
    const odd = { ...entry({ status: 200, responseBody: '[]' }), response: { status: 'two hundred' } };
    const path = await writeHar(dir, 'odd.har', [...Array.from({ length: 101 }, () => odd), entry({ status: 200, responseBody: '[]' })]);
    const { summary } = await judgeTraffic({ checks: CHECKS, files: [path], baseUrl: BASE }, new Redactor());
    expect(summary.invalid!.entries).toBe(101);
    expect(summary.invalid!.listed).toHaveLength(100);
    expect(summary.invalid!.listed[0]).toEqual({ file: path, entry: 1, reason: 'response.status is not an integer (found string)' });
    // Every entry is one of the capture's, read or not.
    expect([summary.entries, summary.judged]).toEqual([102, 1]);
  });

  test('on the console: the first 10 entries not read and the first 10 bodies not kept, each named, then one line for the rest; near miss: 10 of each, no such line', async () => {
    const odd = { ...entry({ status: 200, responseBody: '[]' }), response: { status: 'two hundred' } };
    const big = (i: number) => entry({ status: 200, responseBody: `[{"id":1,"name":"${'n'.repeat(2_000)}"}]`, startMs: i });
    const printed = async (n: number) => {
      const path = await writeHar(dir, `odd-${n}.har`, [...Array.from({ length: n }, () => odd), ...Array.from({ length: n }, (_, i) => big(i))]);
      let console = '';
      await judgeCapture({ checks: CHECKS, files: [path], baseUrl: BASE, maxBodyBytes: 1024, reportDir: null, formats: ['json'], out: { write: (text: string) => ((console += text), true) } as never });
      return console.split('\n');
    };
    const eleven = await printed(11);
    expect(eleven.filter((line) => line.startsWith('  not read: '))).toHaveLength(10);
    expect(eleven.filter((line) => line.startsWith('  not judged: #'))).toHaveLength(10);
    expect(eleven).toContain('  … 1 more entry not read (report.json: traffic.invalid lists the first 11)');
    expect(eleven).toContain('  … 1 more body not kept (report.json: traffic.dropped lists the first 11)');
    const ten = await printed(10);
    expect(ten.filter((line) => line.startsWith('  not read: '))).toHaveLength(10);
    expect(ten.filter((line) => line.startsWith('  … '))).toEqual([]);
  });
});

describe("this tool's own capture of a body it kept cut", () => {
  /** A list of `length` characters (ASCII) recorded as a run records it, written to HAR and read back. */
  const roundTrip = (length: number) => {
    const body = `["${'x'.repeat(length - 4)}"]`;
    const exchange = { seq: 1, checkId: 'c', credential: 'valid', request: { method: 'GET', url: `${BASE}/categories`, headers: {} }, response: { status: 200, headers: {}, body, bodyBytes: length, utf8Valid: true }, startedAt: new Date(0).toISOString(), durationMs: 1, connection: 'fresh' as const };
    return capturedExchange(JSON.parse(JSON.stringify(harEntry(withBodyCapped(exchange)))), 1, () => 'valid')!;
  };
  test.each([
    ['a body of exactly the cap: kept whole, judged', RECORDED_BODY_CAP, []],
    ['near miss: one character past the cap (shorter than the cut text with its mark): cut, never judged', RECORDED_BODY_CAP + 1, [`response body (cut short: ${RECORDED_BODY_CAP} of ${RECORDED_BODY_CAP + 1} bytes kept)`]],
    ['far past the cap: cut', RECORDED_BODY_CAP * 2, [`response body (cut short: ${RECORDED_BODY_CAP} of ${RECORDED_BODY_CAP * 2} bytes kept)`]],
  ])('%s', (_d, length, missing) => {
    const captured = roundTrip(length);
    expect(captured.missing).toEqual(missing);
    if (missing.length === 0) expect(captured.response!.body).toHaveLength(length);
  });
});

describe('a captured request is held only to the rules whose premise it meets (src/check/premises.ts)', () => {
  const musts = (checks: Map<string, CheckResult>) => [...checks.values()].filter((check) => check.level === 'must' && check.status === 'failed').map((check) => check.id);
  const form = (status: number, authorization: string | null = `Bearer ${KEY}`, responseBody = error(status)): EntrySpec => ({ ...create('name=Cats', status, responseBody), contentType: 'application/x-www-form-urlencoded', authorization });
  const upload = (bytes: number, status: number): EntrySpec => ({ ...create({ name: 'x'.repeat(bytes - 11) }, status, error(status)), authorization: null });

  test('a form post refused with 415 (http --form, requests.post(data=…)): no finding, a policy observed', async () => {
    const checks = await judge([form(415)]);
    expect(musts(checks)).toEqual([]);
    expect(checks.get('create-rejects-malformed-json')!.status).toBe('skipped');
    expect(checks.get('no-server-error')!.observations).toEqual(['bodies sent as application/x-www-form-urlencoded are refused (415): a request outside the interface, refused honestly (RFC 9110 §15.5.16)']);
  });

  test('a keyless form post: refused before the key (415) or with 401, no finding; let through (201), auth-key-outside-authorization fails', async () => {
    expect(musts(await judge([form(415, null)]))).toEqual([]);
    expect(musts(await judge([form(401, null)]))).toEqual([]);
    const through = await judge([form(201, null, created(1, 'Cats'))]);
    expect(musts(through)).toEqual(['auth-key-outside-authorization']);
  });

  test('a keyless upload past the largest body refused with 413 before the key: no finding; one of the largest body (the near miss) must be 401', async () => {
    const { LARGEST_BODY_BYTES } = await import('../../src/http/request-variations.js');
    expect(musts(await judge([upload(LARGEST_BODY_BYTES + 1, 413)]))).toEqual([]);
    expect(musts(await judge([upload(LARGEST_BODY_BYTES, 413)]))).toEqual(expect.arrayContaining(['create-401-missing']));
  });

  test('an invalid body answered 401 under the known key is a finding; under a key the capture cannot verify, none; under a key one edit from it, only the 401 rules judge', async () => {
    const refusedBody = { ...create({ description: 'no name' }, 401, error(401)) };
    expect(musts(await judge([refusedBody], { apiKey: KEY }))).toContain('create-rejects-missing-name');
    expect(musts(await judge([refusedBody]))).not.toContain('create-rejects-missing-name');
    // Under a key one character from the known one, only the 401 rules judge a create, "regardless of the body" (4.2/R3): a 201 without an id breaks them alone.
    expect(musts(await judge([{ ...create({ name: 'Cats' }, 201, '{}'), authorization: `Bearer ${KEY}x` }], { apiKey: KEY }))).toEqual(['create-401-key-char-added', 'auth-rejects-generated-credentials']);
  });

  test('a valid create refused with 413 and an Error body is a size limit (section 8), no finding; with 418 (the near miss), a finding', async () => {
    expect(musts(await judge([create({ name: 'Cats' }, 413, error(413))]))).toEqual([]);
    expect(musts(await judge([create({ name: 'Cats' }, 418, error(418))]))).not.toEqual([]);
  });

  test('a body the writer left out is sized by bodySize: past the largest, outside', async () => {
    const { LARGEST_BODY_BYTES } = await import('../../src/http/request-variations.js');
    const leftOut = { ...upload(100, 413), requestBodySize: LARGEST_BODY_BYTES + 1 };
    const checks = await judge([{ ...entry(leftOut), request: { ...(entry(leftOut).request as object), postData: { mimeType: 'application/json' } } }]);
    expect(musts(checks)).toEqual([]);
  });

  test('a chunked create: 411 is a transport policy, 400 a should failure, a damaged 201 a must failure; HTTP/1.0 is not asked', async () => {
    const chunked = (status: number, body: string, httpVersion?: string): EntrySpec => ({ ...create({ name: 'Café' }, status, body), requestHeaders: { 'Transfer-Encoding': 'chunked' }, ...(httpVersion ? { httpVersion } : {}) });
    const refused = await judge([chunked(411, error(411))]);
    expect(musts(refused)).toEqual([]);
    expect(refused.get('chunked-body-answered')!.observations).toEqual([expect.stringMatching(/^request bodies sent chunked are refused \(411 Length Required\)/)]);
    const read400 = await judge([chunked(400, error(400))]);
    expect(musts(read400)).toEqual([]);
    expect(read400.get('chunked-body-answered')!.status).toBe('failed');
    expect(read400.get('create-name-only')!.status).toBe('skipped');
    expect(musts(await judge([chunked(201, created(1, 'Caf\ufffd\ufffd'))]))).toEqual(['chunked-body-created-exactly']);
    expect(musts(await judge([chunked(201, created(1, 'Café'))]))).toEqual([]);
    const old = await judge([chunked(400, error(400), 'HTTP/1.0')]);
    expect(old.get('chunked-body-answered')!.status).toBe('skipped');
  });

  test('Expect: 100-continue: refused with 417, a transport policy; gone on past, the create is judged as any', async () => {
    const expecting = (status: number, body: string): EntrySpec => ({ ...create({ name: 'Cats' }, status, body), requestHeaders: { Expect: '100-continue' } });
    const refused = await judge([expecting(417, error(417))]);
    expect(musts(refused)).toEqual([]);
    expect(refused.get('answers-allowed-status')!.observations).toEqual(['requests with Expect: 100-continue are refused (417): a transport policy (RFC 9110 §15.5.18)']);
    expect((await judge([expecting(201, created(1, 'cats'))])).get('create-valid-bodies')!.status).toBe('failed');
  });

  test('CORS preflights: counted, and when refused, said once at info', async () => {
    const preflight = (status: number): EntrySpec => ({ method: 'OPTIONS', status, responseBody: '', authorization: null, requestHeaders: { 'Access-Control-Request-Method': 'POST', Origin: 'https://app.example' } });
    const refused = await judge(Array.from({ length: 10 }, () => preflight(401)));
    expect(musts(refused)).toEqual([]);
    expect(refused.get('cors-preflight-answered')!.failure!.message).toMatch(/^10 of 10 captured exchanges broke the rule; first, exchange #1: An OPTIONS preflight was answered 401: a page on another origin cannot call the API/);
    expect((await judge([preflight(204)])).get('cors-preflight-answered')!.status).toBe('passed');
  });

  test('a request without the key around the interface (another method, an override, a forwarding header, a path override): the active property, its change named', async () => {
    const keyed = { ...list([{ id: 1, name: 'Cats' }]), responseHeaders: { 'X-Total-Count': '1' } };
    const keyless = (spec: Partial<EntrySpec>): EntrySpec => ({ ...list([]), startMs: 100, authorization: null, ...spec });
    const failure = async (spec: EntrySpec, alsoFailed: string[] = []) => {
      const checks = await judge([keyed, spec], { apiKey: KEY });
      expect(musts(checks).sort()).toEqual(['auth-rejects-generated-credentials', ...alsoFailed]);
      return checks.get('auth-rejects-generated-credentials')!.failure!.message;
    };
    expect(await failure(keyless({ method: 'HEAD', responseBody: '', responseHeaders: { 'X-Total-Count': '1' } }))).toContain('`HEAD` without a key answered 200 with `X-Total-Count: 1`');
    expect(await failure(keyless({ method: 'OPTIONS', requestHeaders: { 'X-HTTP-Method-Override': 'GET' }, responseBody: JSON.stringify([{ id: 1, name: 'Cats' }]) }))).toContain('`OPTIONS` + `X-HTTP-Method-Override: GET` without a key answered 200 with the list');
    expect(await failure(keyless({ requestHeaders: { 'X-Forwarded-For': '127.0.0.1' }, responseBody: JSON.stringify([{ id: 1, name: 'Cats' }]) }), ['list-401-missing'])).toContain('the server accepted `X-Forwarded-For: 127.0.0.1` without a key');
    expect(await failure(keyless({ url: new URL('/', BASE).href, requestHeaders: { 'X-Original-URL': '/v1/categories' }, responseBody: JSON.stringify([{ id: 1, name: 'Cats' }]) }))).toContain('`X-Original-URL: /v1/categories` without a key answered 200 with the list');
    // Near misses: refused, or with the key, or a path override naming another path.
    for (const spec of [
      keyless({ method: 'HEAD', status: 401, responseBody: '' }),
      keyless({ method: 'OPTIONS', status: 405, responseBody: error(405) }),
      { ...keyless({ method: 'HEAD', responseBody: '' }), authorization: `Bearer ${KEY}` },
      keyless({ url: new URL('/', BASE).href, requestHeaders: { 'X-Original-URL': '/v1/other' }, responseBody: JSON.stringify([{ id: 1, name: 'Cats' }]) }),
    ]) {
      expect(musts(await judge([keyed, spec], { apiKey: KEY })), JSON.stringify(spec)).toEqual([]);
    }
  });

  test('the key in a query parameter (auth-key-in-query), a key header or a cookie (auth-key-outside-authorization), let through: that check, not the 401 checks', async () => {
    const keyless = (requestHeaders: Record<string, string>, path = '/categories'): EntrySpec => ({ ...list([]), path, authorization: null, requestHeaders });
    for (const [spec, where, id] of [
      [keyless({}, `/categories?access_token=${KEY}`), 'the query parameter access_token', 'auth-key-in-query'],
      [keyless({}, `/categories?api_key=${KEY}`), 'the query parameter api_key', 'auth-key-in-query'],
      [keyless({}, `/categories?page=${KEY}`), undefined, undefined],
      [keyless({ 'X-API-Key': KEY }), 'the header X-API-Key', 'auth-key-outside-authorization'],
      [keyless({ Cookie: 'session=abc' }), 'the cookie session', 'auth-key-outside-authorization'],
    ] as const) {
      const checks = await judge([spec]);
      if (id === undefined) {
        // Near miss: a parameter that carries no key by name is a request without a key, the 401 checks'.
        expect(musts(checks), 'page').not.toContain('auth-key-in-query');
        continue;
      }
      expect(musts(checks), where).toEqual([id]);
      expect(checks.get(id)!.failure!.message).toContain(`authenticated it by ${where}`);
      expect(checks.get('list-401-missing')!.status).toBe('skipped');
    }
    expect(musts(await judge([{ ...list([]), status: 401, responseBody: error(401), authorization: null, requestHeaders: { 'X-API-Key': KEY } }]))).toEqual([]);
  });
});

describe('the reader trusts what it can check (src/traffic/capture.ts)', () => {
  const json = '{"id":1,"name":"Cats"}';
  const bytes = Buffer.byteLength(json);
  const read = (content: Record<string, unknown>, headers: Record<string, string> = {}) =>
    capturedExchange(JSON.parse(JSON.stringify(entry({ status: 201, requestBody: '{"name":"Cats"}', content, responseHeaders: headers }))), 1, () => 'valid')!;
  test.each([
    ['text whole, size right', { size: bytes, text: json }, {}, []],
    ["text whole, size twice the body (chrome-har): the text parses, it is the body", { size: bytes * 2, text: json }, {}, []],
    ["text whole, size of the compressed bytes, larger (mitmproxy's har_dump): a Content-Encoding applies", { size: bytes + 20, text: json }, { 'Content-Encoding': 'gzip' }, []],
    ['near miss: text cut (it does not parse), size larger, no encoding: cut short', { size: bytes, text: json.slice(0, 10) }, {}, [`response body (cut short: 10 of ${bytes} bytes kept)`]],
    ['text left out, size known: not kept', { size: bytes }, {}, ['response body (not kept in the capture)']],
  ])('%s', (_d, content, headers, missing) => {
    const captured = read(content, headers as Record<string, string>);
    expect(captured.missing).toEqual(missing);
    if (missing.length === 0) expect(captured.response!.body).toBe(json);
  });

  test("a page that is not JSON, its compressed size larger than its decoded text (mitmproxy): the text is the body, judged", () => {
    const page = '<h1>Bad</h1>';
    const captured = read({ size: Buffer.byteLength(page) + 20, text: page }, { 'Content-Encoding': 'gzip' });
    expect(captured.missing).toEqual([]);
    expect(captured.response!.body).toBe(page);
  });

  const posted = (postData: Record<string, unknown>, bodySize?: number) =>
    capturedExchange({ ...(entry({ status: 201, responseBody: json }) as object), request: { ...(entry({ status: 201 }).request as object), method: 'POST', postData, ...(bodySize === undefined ? {} : { bodySize }) } } as never, 1, () => 'valid')!;
  test.each([
    ['a JSON body kept as params (chrome-har), its length in UTF-16 units: rebuilt', { mimeType: 'application/json', params: [{ name: 'name', value: 'Cats' }, { name: 'description', value: 'Félins' }] }, '{"name":"Cats","description":"Félins"}', [], 38],
    ['near miss: a JSON body kept as params, a length that is neither its bytes nor its units: not rebuilt', { mimeType: 'application/json', params: [{ name: 'name', value: 'Cats' }] }, undefined, ["request body (given as params only, and their text, 15 bytes, is not the body's 16)"], 16],
    ['a form body kept as params (Firefox): rebuilt', { mimeType: 'application/x-www-form-urlencoded', params: [{ name: 'name', value: 'Cats & dogs' }] }, 'name=Cats+%26+dogs', []],
    ['near miss: a name given twice (an array, in chrome-har\'s writing): not rebuilt', { mimeType: 'application/json', params: [{ name: 'tags', value: 'a' }, { name: 'tags', value: 'b' }] }, undefined, ['request body (given as params only, which do not say what the body was)']],
    ['near miss: indexes for names (an array or a string): not rebuilt', { mimeType: 'application/json', params: [{ name: '0', value: 'C' }, { name: '1', value: 'a' }] }, undefined, ['request body (given as params only, which do not say what the body was)']],
    ['text beside params: the text', { mimeType: 'application/json', text: '{"name":"Dogs"}', params: [{ name: 'name', value: 'Cats' }] }, '{"name":"Dogs"}', []],
  ])('%s', (_d, postData, body, missing, bodySize?: number) => {
    const captured = posted(postData, bodySize);
    expect(captured.request.body).toBe(body);
    expect(captured.missing).toEqual(missing);
  });

  test("a body's media type kept in postData alone (Insomnia) is its Content-Type", () => {
    const captured = posted({ mimeType: 'application/json', text: '{"name":"Dogs"}' });
    expect(captured.request.headers['content-type']).toBe('application/json');
  });
});
