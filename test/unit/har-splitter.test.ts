/**
 * The HAR splitter (src/traffic/har-splitter.ts): which member each value of a capture is,
 * the value's bytes whole or in parts at its bound, wherever the reads fall, and where the
 * structure breaks, by its byte.
 */
import { describe, expect, test } from 'vitest';
import { HarSplitter, HarSyntaxError, type HarPiece } from '../../src/traffic/har-splitter.js';

/** Splits `text` read in chunks cut at `cuts` (byte offsets); the values, each as its member and text. */
function split(text: string | Buffer, cuts: number[] = [], wholeBytes = 1024): Array<[string, string]> {
  const bytes = Buffer.isBuffer(text) ? text : Buffer.from(text);
  const splitter = new HarSplitter(wholeBytes);
  const pieces: HarPiece[] = [];
  let from = 0;
  for (const cut of [...cuts, bytes.length]) {
    pieces.push(...splitter.push(bytes.subarray(from, cut)));
    from = cut;
  }
  pieces.push(...splitter.end());
  const values: Array<[string, string]> = [];
  let large = '';
  for (const piece of pieces) {
    if ('bytes' in piece) values.push([piece.member, piece.bytes.toString('utf8')]);
    else {
      large = (piece.first ? '' : large) + piece.part.toString('utf8');
      if (piece.last) values.push([`${piece.member} (in parts)`, large]);
    }
  }
  return values;
}

/** The error the splitter throws for `text`, as [message, atEnd]. */
function broken(text: string): [string, boolean] {
  try {
    split(text);
  } catch (error) {
    if (error instanceof HarSyntaxError) return [error.message, error.atEnd];
    throw error;
  }
  throw new Error('no error');
}

const TRICKY = `\ufeff {"log" : {"version":"1.2", "creator" : {"name":"a \\"quoted\\" } ] { [ name"},
  "pages": [{"id":"p\\\\"}, 1.5e3, true, null],
  "entries" : [ {"a":"\\\\\\"x\\u00e9"} , "é", -0.5, false, [1,[2]], {"b":{}} ], "comment": "x" }, "other": [] }
`;

describe('the members of a capture', () => {
  test.each([
    ['a brace', '{"log":{"entries":[true],"comment":7}}', [['entry', 'true'], ['other', '7']]],
    ['a bracket', '{"log":{"entries":[1,null]}}', [['entry', '1'], ['entry', 'null']]],
    ['a comma', '{"log":{"comment":-2,"entries":[]}}', [['other', '-2']]],
    ['whitespace', '{"log":{"comment":false\n}}', [['other', 'false']]],
  ])('a number or a literal ends at %s, with nothing between', (_d, text, values) => expect(split(text)).toEqual(values));

  test('version, creator, each entry whatever it is, and every other value; whitespace and a byte order mark around them', () => {
    expect(split(TRICKY)).toEqual([
      ['version', '"1.2"'],
      ['creator', '{"name":"a \\"quoted\\" } ] { [ name"}'],
      ['other', '[{"id":"p\\\\"}, 1.5e3, true, null]'],
      ['entry', '{"a":"\\\\\\"x\\u00e9"}'],
      ['entry', '"é"'],
      ['entry', '-0.5'],
      ['entry', 'false'],
      ['entry', '[1,[2]]'],
      ['entry', '{"b":{}}'],
      ['other', '"x"'],
      ['other', '[]'],
    ]);
  });

  test('wherever the reads fall (every byte, and every pair of bytes around a backslash), the same values', () => {
    const whole = split(TRICKY);
    const length = Buffer.byteLength(TRICKY);
    for (let cut = 0; cut <= length; cut++) expect(split(TRICKY, [cut]), `cut at ${cut}`).toEqual(whole);
    const slashes = [...Buffer.from(TRICKY).entries()].filter(([, byte]) => byte === 0x5c).map(([i]) => i);
    for (const at of slashes) expect(split(TRICKY, [at, at + 1, at + 2]), `cuts around ${at}`).toEqual(whole);
  });

  test('a key written with escapes names its member; near misses: log not an object, entries not a list, entries outside log, a deeper log', () => {
    expect(split('{"\\u006cog":{"entr\\u0069es":[1]}}')).toEqual([['entry', '1']]);
    expect(split('{"log":[{"entries":[1]}]}')).toEqual([['other', '[{"entries":[1]}]']]);
    expect(split('{"log":{"entries":{"0":1}}}')).toEqual([['other', '{"0":1}']]);
    expect(split('{"entries":[1],"log":{}}')).toEqual([['other', '[1]']]);
    expect(split('{"log":{"log":{"entries":[1]}}}')).toEqual([['other', '{"entries":[1]}']]);
  });

  test('a document that is not an object is one other value, a number too', () => {
    expect(split('[{"log":{}}]')).toEqual([['other', '[{"log":{}}]']]);
    expect(split(' 42 ')).toEqual([['other', '42']]);
    expect(split('42')).toEqual([['other', '42']]);
  });
});

describe('a value at its bound', () => {
  const entry = (bytes: number) => `"${'x'.repeat(bytes - 2)}"`;
  const har = (value: string) => `{"log":{"entries":[${value}]}}`;

  test.each([
    ['exactly the bound: whole', 64, 'entry'],
    ['near miss: a byte more, in parts', 65, 'entry (in parts)'],
  ])('%s', (_what, bytes, member) => {
    for (const cuts of [[], [25], [25, 26, 27, 60, 90]]) expect(split(har(entry(bytes)), cuts, 64), JSON.stringify(cuts)).toEqual([[member, entry(bytes)]]);
  });

  test('a large value comes in parts as its bytes arrive, the first with what came before the bound', () => {
    // 10 bytes: the key "entries" (9) is read whole, the entry is not.
    const splitter = new HarSplitter(10);
    expect(splitter.push(Buffer.from('{"log":{"entries":["abcdef'))).toEqual([]);
    const [first] = splitter.push(Buffer.from('ghij'));
    expect(first).toEqual({ member: 'entry', part: Buffer.from('"abcdefghij'), first: true, last: false });
    expect(splitter.push(Buffer.from('k"]}}'))).toEqual([{ member: 'entry', part: Buffer.from('k"'), first: false, last: true }]);
    expect(splitter.end()).toEqual([]);
  });

  test('a key past the bound names no member: its value is another', () => {
    expect(split(`{"log":{"${'e'.repeat(80)}":[1]}}`, [], 64)).toEqual([['other', '[1]']]);
  });
});

describe('where the structure breaks', () => {
  test.each([
    ['two entries without a comma', '{"log":{"entries":[1 2]}}', 'unexpected "2" at byte 21'],
    ['a member without its colon', '{"log" {}}', 'unexpected "{" at byte 7'],
    ['a comma before the end of an object', '{"log":{},}', 'unexpected "}" at byte 10'],
    ['a comma before the end of the entries', '{"log":{"entries":[1,]}}', 'unexpected "]" at byte 21'],
    ['a value that is no JSON', '{"log":@}', 'unexpected "@" at byte 7'],
    ['a second document', '{"log":{}} {}', 'unexpected "{" at byte 11'],
    ['a control byte', '{"log":\u0001}', 'unexpected byte 0x01 at byte 7'],
    ['a key that is no string', '{log:{}}', 'unexpected "l" at byte 1'],
  ])('%s: the byte named', (_what, text, message) => {
    expect(broken(text)).toEqual([message, false]);
  });

  test.each([
    ['inside an entry', '{"log":{"entries":[{"a":', 'the JSON ends at byte 24, unfinished'],
    ['inside a key', '{"lo', 'the JSON ends at byte 4, unfinished'],
    ['after a whole entry', '{"log":{"entries":[1,', 'the JSON ends at byte 21, unfinished'],
    ['inside a number of the log (near miss of a number that is the whole document)', '{"log":{"version":1', 'the JSON ends at byte 19, unfinished'],
    ['an empty file', '', 'the file is empty'],
    ['whitespace alone', ' \n', 'the JSON ends at byte 2, unfinished'],
  ])('a capture that ends %s ends too soon (atEnd)', (_where, text, message) => {
    expect(broken(text)).toEqual([message, true]);
  });

  test('the values before a break in the same read are handed on; the break comes with the next call', () => {
    const splitter = new HarSplitter(1024);
    expect(splitter.push(Buffer.from('{"log":{"entries":[1,2 @')).map((piece) => ('bytes' in piece ? [piece.member, piece.bytes.toString()] : piece))).toEqual([
      ['entry', '1'],
      ['entry', '2'],
    ]);
    expect(() => splitter.end()).toThrow('unexpected "@" at byte 23');
    // near miss: a break with nothing before it in its read is thrown at once
    expect(() => new HarSplitter(1024).push(Buffer.from('{"log"@'))).toThrow('unexpected "@" at byte 6');
  });

  test('a key that is no JSON string (a bad escape) is said as such', () => {
    expect(broken('{"\\x":{}}')[0]).toMatch(/^a key is not a JSON string before byte \d+ \(/);
  });
});
