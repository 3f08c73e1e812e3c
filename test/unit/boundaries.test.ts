/**
 * Near misses beside boundaries a sample of 30 random boundary mutations (`<` for `<=`,
 * `>=` for `>` …, 2026-11-26) crossed unseen: each decision here gets a case on each side
 * of its edge. Equivalent mutants (a tie that picks the same value, a bound past the end of
 * a loop that matches nothing) are left out, as they can fail no test.
 */
import { describe, expect, test } from 'vitest';
import { credentialCoverage, exampleCredentials } from '../../src/arbitraries/invalid-credential.js';
import { codePoints } from '../../src/check/length-limit.js';
import { accepts } from '../../src/config/setting-values.js';
import { SETTINGS } from '../../src/config/settings.js';
import { gateLines } from '../../src/report/gate.js';
import type { CheckResult } from '../../src/report/model.js';
import type { TrafficSummary } from '../../src/report/model.js';
import { trafficWords } from '../../src/report/traffic-words.js';
import { coverageShortfall, truncationShortfall } from '../../src/report/verdict.js';
import { capturedExchange } from '../../src/traffic/capture.js';
import { TrafficJudge } from '../../src/traffic/judge.js';
import { MAX_PIECE_WINDOWS, PIECE_CHARS, SecretPieces } from '../../src/secrets/pieces.js';
import { Redactor, shortSecretNotice, SUBSTRING_SECRET_CHARS } from '../../src/secrets/redactor.js';
import { CHECKS } from '../support/checks.js';
import { BASE, entry } from '../support/har.js';

describe('a list setting', () => {
  test('takes one choice or more, never none (--format "" would write no report)', () => {
    expect(accepts(SETTINGS.formats, ['json'])).toBe(true);
    expect(accepts(SETTINGS.formats, [])).toBe(false);
  });
});

describe('code points of a text (section 8: length limits count characters)', () => {
  test.each([
    ['U+10000, the first pair (high unit 0xD800)', '\u{10000}', 1],
    ['U+10FFFF, the last pair (high unit 0xDBFF)', '\u{10FFFF}', 1],
    ['a lone high unit 0xDBFF before a letter', '\uDBFFa', 2],
    ['a lone low unit 0xDC00', '\uDC00', 1],
    ['0xDC00 then a low unit: no pair', '\uDC00\uDC00', 2],
    ['0xD7FF, one below the high units, then a low unit: no pair', '\uD7FF\uDC00', 2],
    ['0xDBFF then 0xE000, one past the low units: no pair', '\uDBFF\uE000', 2],
  ])('%s', (_what, text, count) => expect(codePoints(text)).toBe(count));
});

describe('the credentials one edit from the key, for a key of one or two characters', () => {
  const examples = (key: string) => Object.fromEntries(exampleCredentials(key, 'ab12').map((credential) => [credential.name, credential]));
  test.each(['key-char-removed', 'key-char-changed'])('%s: unavailable for a key of one character, sent for a key of two', (name) => {
    expect(examples('k')[name]).toMatchObject({ unavailable: 'the key has one character' });
    expect(examples('kx')[name]).not.toHaveProperty('unavailable');
    expect(examples('kx')[name]!.header).toMatch(/^Bearer \S+$/);
  });
});

describe('coverage swaps one letter\'s case only where the key has two letters or more (one letter swapped alone is the example\'s every letter)', () => {
  const caseSwaps = (key: string) => credentialCoverage(key).filter(({ value }) => value.credential.name === 'key-case-swapped').length;
  test('a key of 16 characters with two letters: the example and the one letter; with one letter: the example alone', () => {
    expect(caseSwaps('12345678901234ab')).toBe(2);
    expect(caseSwaps('123456789012345a')).toBe(1);
  });
});

describe('messages that list what there is, and say nothing of what there is not', () => {
  const must = (id: string, status: CheckResult['status']): CheckResult => ({ id, title: id, clause: '4', level: 'must', requirements: [], status, durationMs: 0, requests: 0 });

  test('--min-must-checks: the checks that ran are named after a colon, none ran: no colon', () => {
    expect(coverageShortfall([must('a', 'skipped')], 2)).toBe('only 0 must checks ran, fewer than --min-must-checks 2');
    expect(coverageShortfall([must('a', 'passed')], 2)).toBe('only 1 must check ran, fewer than --min-must-checks 2: a');
  });

  test('--min-must-checks all: every must check of the suite ran, or those that did not are named; profile: only those the profile left out may be missing', () => {
    const readOnly = (id: string): CheckResult => ({ ...must(id, 'skipped'), reason: 'untested (profile read-only)' });
    const empty = (id: string): CheckResult => ({ ...must(id, 'skipped'), reason: 'the list is empty' });
    expect(coverageShortfall([must('a', 'passed'), must('b', 'failed'), must('c', 'error')], 'all')).toBeUndefined();
    expect(coverageShortfall([must('a', 'passed'), readOnly('w')], 'all')).toBe('1 of 2 must checks ran; --min-must-checks all asks for every must check of the suite: not run w (untested (profile read-only))');
    expect(coverageShortfall([must('a', 'passed'), readOnly('w')], 'profile')).toBeUndefined();
    expect(coverageShortfall([must('a', 'passed'), readOnly('w'), empty('e')], 'profile')).toBe('1 of 3 must checks ran; --min-must-checks profile asks for every must check the profile reaches: not run e (the list is empty)');
    // A read-only profile taken by default is named, with how to choose; near misses: chosen, or asked for `profile`.
    const byDefault = { profile: 'read-only', profileSource: 'default' } as const;
    expect(coverageShortfall([must('a', 'passed'), readOnly('w')], 'all', byDefault)).toBe('the profile was read-only by default, as for every target not on loopback (--profile full runs the creates; --profile read-only, written, gates on reads alone); 1 of 2 must checks ran; --min-must-checks all asks for every must check of the suite: not run w (untested (profile read-only))');
    expect(coverageShortfall([must('a', 'passed'), readOnly('w')], 'all', { ...byDefault, profileSource: 'explicit' })).toMatch(/^1 of 2 must checks ran/);
    expect(coverageShortfall([must('a', 'passed'), readOnly('w'), empty('e')], 'profile', byDefault)).toMatch(/^1 of 3 must checks ran/);
    // The key kept out of URLs is a safe default, as the profile is: `profile` does not ask for it, `all` does.
    const withheld: CheckResult = { ...must('q', 'skipped'), reason: "would write the key into the target's access logs; --allow-key-in-url runs it" };
    expect(coverageShortfall([must('a', 'passed'), withheld], 'profile')).toBeUndefined();
    expect(coverageShortfall([must('a', 'passed'), withheld], 'all')).toMatch(/not run q \(would write the key into the target's access logs; --allow-key-in-url runs it\)$/);
    // Five named at most: the sixth is counted.
    const six = Array.from({ length: 6 }, (_, i) => empty(`e${i}`));
    expect(coverageShortfall([must('a', 'passed'), ...six.slice(0, 5)], 'all')).toMatch(/e4 \(the list is empty\)$/);
    expect(coverageShortfall([must('a', 'passed'), ...six], 'all')).toMatch(/e4 \(the list is empty\), and 1 more$/);
    // Only must checks count: a should check skipped is no shortfall.
    expect(coverageShortfall([must('a', 'passed'), { ...readOnly('s'), level: 'should' }], 'all')).toBeUndefined();
  });

  test('a capture cut short: the others cut are counted from the second on', () => {
    const cut = (n: number): TrafficSummary => ({ files: [], entries: 3, judged: 3, other: 0, missing: {}, truncated: Array.from({ length: n }, (_, i) => ({ file: `f${i}.har`, entries: 3, reason: 'ends mid-entry' })) }) as TrafficSummary;
    expect(truncationShortfall(cut(1), false)).not.toMatch(/more cut/);
    expect(truncationShortfall(cut(2), false)).toMatch(/, and 1 more cut;/);
  });

  test('the gate: new failures are listed when there are some', () => {
    const gate = { passed: true, known: [], new: [] as string[], stale: [], expired: [] };
    expect(gateLines(gate)).toEqual(['Gate: PASSED']);
    expect(gateLines({ ...gate, passed: false, new: ['a'] })).toEqual(['Gate: FAILED', 'Gate: new failures: a']);
  });

  test('traffic in words: bodies not kept are said when there are some', () => {
    const traffic = { files: [], entries: 2, judged: 2, other: 0, missing: {} } as TrafficSummary;
    expect(trafficWords(traffic)).toBe('2 exchanges judged of 2 entries (0 left alone)');
    expect(trafficWords({ ...traffic, missing: { 'response body': 1 } })).toBe('2 exchanges judged of 2 entries (0 left alone); bodies not kept: response body 1');
  });
});

describe('the traffic judge notes where entries left alone went', () => {
  test('ten origins at most (what a wrong --base-url is told); one already noted is still counted', () => {
    const judge = new TrafficJudge(BASE, CHECKS);
    const elsewhere = (port: number, seq: number) => capturedExchange(entry({ url: `http://127.0.0.1:${port}/v1/categories`, status: 200, responseBody: '[]' }) as never, seq, () => 'valid')!;
    for (let port = 1; port <= 11; port++) judge.judge(elsewhere(port, port));
    judge.judge(elsewhere(1, 12));
    const noted = judge.otherOrigins();
    expect(noted).toHaveLength(10);
    expect(noted[0]).toBe('http://127.0.0.1:1/v1 (2)');
    expect(noted).not.toContain('http://127.0.0.1:11/v1 (1)');
  });
});

describe('the proxy judge records a body only where one went through', () => {
  test('a GET without a body has none (no empty postData in the HAR); a POST of 15 bytes has its 15', async () => {
    const { ProxyJudge } = await import('../../src/traffic/proxy-judge.js');
    const appended: Array<{ method: string; body?: string }> = [];
    const har = { append: (exchange: { request: { method: string; body?: string } }) => appended.push(exchange.request), close: async () => undefined, entries: 0 };
    const judge = new ProxyJudge({ baseUrl: BASE, checks: CHECKS }, () => {}, har as never);
    const forwarded = (method: string, body: string) => ({
      startMs: 0,
      endMs: 1,
      method,
      url: `${BASE}/categories`,
      clientHeaders: ['Content-Type', 'application/json'],
      forwardedHeaders: ['Content-Type', 'application/json'],
      requestBody: { kept: Buffer.from(body), bytes: Buffer.byteLength(body) },
      status: 401,
      responseHeaders: ['Content-Type', 'application/json'],
      responseBody: { kept: Buffer.from('{}'), bytes: 2 },
    });
    judge.take(forwarded('GET', ''));
    judge.take(forwarded('POST', '{"name":"Cats"}'));
    // The near miss: a body of one byte is a body.
    judge.take(forwarded('POST', '1'));
    expect(appended.map((request) => [request.method, request.body])).toEqual([
      ['GET', undefined],
      ['POST', '{"name":"Cats"}'],
      ['POST', '1'],
    ]);
    expect('body' in appended[0]!).toBe(false);
  });

  test('the recording thread\'s judge (recordOnly) records every exchange and judges none; near miss: the judging one judges them', async () => {
    const { ProxyJudge } = await import('../../src/traffic/proxy-judge.js');
    const outcome = async (recordOnly: boolean) => {
      let appended = 0;
      const har = { append: () => appended++, close: async () => undefined, entries: 0 };
      const judge = new ProxyJudge({ baseUrl: BASE, checks: CHECKS, recordOnly }, () => {}, har as never);
      judge.take({ startMs: 0, endMs: 1, method: 'GET', url: `${BASE}/categories`, clientHeaders: [], forwardedHeaders: [], requestBody: { kept: Buffer.alloc(0), bytes: 0 }, status: 200, responseHeaders: ['Content-Type', 'application/json'], responseBody: { kept: Buffer.from('[]'), bytes: 2 } });
      return { appended, judged: (await judge.finish()).counts.judged };
    };
    expect(await outcome(true)).toEqual({ appended: 1, judged: 0 });
    expect(await outcome(false)).toEqual({ appended: 1, judged: 1 });
  });
});

describe('bounded tokens: the entry a capture is read by', () => {
  /** The JSON text read through stream-json's parser (as har-reader.ts reads it) and the bounded stage, assembled back. */
  async function read(text: string, bounds: { valueChars: number; entryChars: number; entryDepth: number }): Promise<unknown> {
    const { Readable } = await import('node:stream');
    const { default: chain } = await import('stream-chain');
    const { parser } = await import('stream-json');
    const { default: Assembler } = await import('stream-json/assembler.js');
    const { boundedTokens } = await import('../../src/traffic/bounded-tokens.js');
    const assembler = new Assembler() as unknown as Record<string, (value?: string) => void> & { current: unknown };
    // As har-reader.ts chains them.
    const tokens = Readable.from([text]).pipe(chain([parser({ packKeys: false, packStrings: false, packNumbers: false, streamKeys: true, streamStrings: true, streamNumbers: true }), boundedTokens(bounds)]));
    for await (const token of tokens as unknown as AsyncIterable<{ name: string; value?: string }>) assembler[token.name]?.(token.value);
    return assembler.current;
  }
  const bounds = { valueChars: 1000, entryChars: 100, entryDepth: 2 };

  test('an entry heavier than its bound is cut, by a member of its own as by a deeper one; a lighter one is kept', async () => {
    const heavy = 'x'.repeat(200);
    // The entries are the values at depth 2 (the array's items).
    expect(JSON.stringify(await read(`[{"a":"${heavy}"}]`, bounds))).toMatch(/__petstoreConformanceCut/);
    expect(JSON.stringify(await read(`[{"a":{"b":"${heavy}"}}]`, bounds))).toMatch(/__petstoreConformanceCut/);
    expect(await read('[{"a":"short"}]', bounds)).toEqual([{ a: 'short' }]);
  });

  test.each([
    ['a document that is one string of exactly the longest kept', 1000, 'x'.repeat(1000)],
    ['near miss: one character more, not kept', 1001, { __petstoreConformanceCut: 1001 }],
  ])('%s (the first value read is counted from its first character)', async (_d, length, kept) => {
    expect(await read(JSON.stringify('x'.repeat(length)), bounds)).toEqual(kept);
  });

  test('cut deep inside arrays and objects, each container opened in the entry is closed as what it is (the stage\'s tokens stay a well-formed stream)', async () => {
    const { Readable } = await import('node:stream');
    const { default: chain } = await import('stream-chain');
    const { parser } = await import('stream-json');
    const { boundedTokens } = await import('../../src/traffic/bounded-tokens.js');
    const text = `[{"a":[[1,{"b":"${'x'.repeat(200)}"}]]}, {"c":1}]`;
    const tokens = Readable.from([text]).pipe(chain([parser({ packKeys: false, packStrings: false, packNumbers: false, streamKeys: true, streamStrings: true, streamNumbers: true }), boundedTokens(bounds)]));
    const stack: string[] = [];
    for await (const { name } of tokens as unknown as AsyncIterable<{ name: string }>) {
      if (name === 'startObject' || name === 'startArray') stack.push(name);
      if (name === 'endObject') expect(stack.pop()).toBe('startObject');
      if (name === 'endArray') expect(stack.pop()).toBe('startArray');
    }
    expect(stack).toEqual([]);
  });
});

describe('the bounds of the redaction (src/secrets), a near miss on each side', () => {
  test('a secret found whole only (a capture’s 65th cookie on) of 8 characters is found inside text; one of 7 only as a whole token', () => {
    const redactor = new Redactor().addWhole('abcdefgh', '[c8]').addWhole('abcdefg', '[c7]');
    expect(redactor.text('xx-abcdefgh-yy')).toBe('xx-[c8]-yy');
    expect(redactor.text('xx-abcdefg-yy')).toBe('xx-abcdefg-yy');
    expect(redactor.text('abcdefg')).toBe('[c7]');
  });

  test(`a secret of ${SUBSTRING_SECRET_CHARS} characters needs no notice; one of ${SUBSTRING_SECRET_CHARS - 1} is told it may stay inside text`, () => {
    expect(shortSecretNotice('the key', 'k'.repeat(SUBSTRING_SECRET_CHARS))).toBeUndefined();
    expect(shortSecretNotice('the key', 'k'.repeat(SUBSTRING_SECRET_CHARS - 1))).toMatch(/^the key is 15 characters long: /);
  });

  test(`the ${MAX_PIECE_WINDOWS.toLocaleString('en')}th window of the secrets is kept; the one after it is not (a secret is still found whole past it)`, () => {
    // Distinct windows: characters drawn from 20,000 CJK ideographs (no quote, no case), by a fixed linear congruential sequence.
    let state = 1;
    const text = Array.from({ length: MAX_PIECE_WINDOWS + PIECE_CHARS }, () => String.fromCharCode(0x4e00 + ((state = (state * 48271) % 2147483647) % 20_000))).join('');
    const pieces = new SecretPieces();
    pieces.add(text, '[s]');
    expect(pieces.size).toBe(MAX_PIECE_WINDOWS);
    const window = (index: number) => text.slice(index, index + PIECE_CHARS);
    expect(pieces.find(window(MAX_PIECE_WINDOWS - 1))).toEqual([{ start: 0, end: PIECE_CHARS, placeholder: '[s]' }]);
    expect(pieces.find(window(MAX_PIECE_WINDOWS))).toEqual([]);
  });
});
