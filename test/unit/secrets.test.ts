import fc from 'fast-check';
import { describe, expect, test } from 'vitest';
import { exampleCredentials, type InvalidCredential } from '../../src/arbitraries/invalid-credential.js';
import { KEY_PLACEHOLDER, Redactor, shortSecretNotice } from '../../src/secrets/redactor.js';
import type { CheckMeta } from '../../src/check/types.js';
import { echoArbitrary, ENCODINGS, piecesIn } from '../support/secret-forms.js';

const KEY = 'Abc123SecretKeyValue_xyz';

describe('Redactor', () => {
  test('replaces the key by value in every string value; member names are the tool’s own', () => {
    const redactor = new Redactor().add(KEY, KEY_PLACEHOLDER);
    const redacted = redactor.value({ message: `bad key ${KEY}`, list: [KEY, 1, null], nested: { h: `Bearer ${KEY}` } });
    expect(JSON.stringify(redacted)).not.toContain(KEY);
    expect(redacted.message).toBe(`bad key ${KEY_PLACEHOLDER}`);
    expect(redactor.value({ [KEY]: 1 })).toEqual({ [KEY]: 1 });
  });

  test('replaces longer derived secrets first', () => {
    const redactor = new Redactor().add(KEY, '<K>').add(`${KEY}x`, '<K+x>');
    expect(redactor.text(`a ${KEY}x b ${KEY}`)).toBe('a <K+x> b <K>');
  });

  test('a JSON body that echoes a credential stays valid JSON when its placeholder holds quotes', () => {
    // As the generated credentials show a changed character: node expansions, with quotes.
    const changed = `${KEY.slice(0, 10)}Q${KEY.slice(11)}`;
    const shown = `$(node -p 'process.env.PETSTORE_API_KEY.slice(0,10)')"Q"$(node -p 'process.env.PETSTORE_API_KEY.slice(11)')`;
    const redactor = new Redactor().add(KEY, KEY_PLACEHOLDER).add(changed, shown);
    const echoed = JSON.stringify({ code: 'unauthorized', message: `rejected Bearer ${changed}, not ${KEY}`, status: 401 });
    const body = redactor.body(echoed);
    expect(body).not.toContain(KEY.slice(0, 12));
    expect(JSON.parse(body)).toEqual({ code: 'unauthorized', message: `rejected Bearer ${shown}, not ${KEY_PLACEHOLDER}`, status: 401 });
    // Text that is not JSON keeps the placeholder as written, quotes and all.
    expect(redactor.body(`<p>Bearer ${changed}</p>`)).toBe(`<p>Bearer ${shown}</p>`);
  });

  test('finds every occurrence of every secret, however many are registered (property)', () => {
    const alnum = fc.constantFrom(...'abcdefghijklmnopqrstuvwxyzABCDEFGHIJKLMNOPQRSTUVWXYZ0123456789_-');
    const edit = fc.record({ at: fc.nat(), kind: fc.constantFrom('add', 'remove', 'change', 'prefix'), c: alnum });
    const apply = (key: string, { at, kind, c }: { at: number; kind: string; c: string }) => {
      const i = at % key.length;
      if (kind === 'add') return key.slice(0, i) + c + key.slice(i);
      if (kind === 'remove') return key.slice(0, i) + key.slice(i + 1);
      if (kind === 'change') return key.slice(0, i) + c + key.slice(i + 1);
      return key.slice(0, Math.max(8, i));
    };
    fc.assert(
      fc.property(
        fc.string({ unit: alnum, minLength: 16, maxLength: 40 }),
        fc.array(edit, { maxLength: 60 }),
        fc.array(fc.tuple(fc.string({ unit: fc.constantFrom(' ', '"', '|', '{'), maxLength: 5 }), fc.nat()), { maxLength: 8 }),
        (key, edits, placements) => {
          const redactor = new Redactor();
          const secrets = [key, ...edits.map((e) => apply(key, e))];
          const shown = new Map(secrets.map((secret) => [secret, `<${secret.length}:${secrets.indexOf(secret)}>`]));
          for (const [secret, placeholder] of shown) redactor.add(secret, placeholder);
          // Fillers share no character with any secret: each placed secret is its own occurrence.
          const placed = placements.map(([filler, n]) => [filler, secrets[n % secrets.length]!] as const);
          const text = placed.map(([filler, secret]) => filler + secret).join('') + '|';
          const expected = placed.map(([filler, secret]) => filler + shown.get(secret)!).join('') + '|';
          expect(redactor.text(text)).toBe(expected);
        },
      ),
      { seed: 20261121, numRuns: 300 },
    );
  });

  test('overlapping secrets are hidden together, under the longest one', () => {
    const redactor = new Redactor().add('abcdefghABCDEFGH', '<A>').add('efghABCDEFGHijkl', '<B>').add('ghABCDEFGHijklmnop', '<C>');
    expect(redactor.text('x abcdefghABCDEFGHijklmnop y')).toBe('x <C> y');
  });

  test('a key found inside text is also found in hex, in either case, and percent-encoded twice', () => {
    const redactor = new Redactor().add(KEY, KEY_PLACEHOLDER);
    const hex = Buffer.from(KEY).toString('hex');
    expect(redactor.text(`x=${hex};`)).toBe(`x=[hex of ${KEY_PLACEHOLDER}];`);
    expect(redactor.text(`x=${hex.toUpperCase()};`)).toBe(`x=[hex of ${KEY_PLACEHOLDER}];`);
    expect(redactor.text(`seen ${KEY.toLowerCase()} and ${KEY.toUpperCase()}`)).toBe(`seen ${KEY_PLACEHOLDER} and ${KEY_PLACEHOLDER}`);
    const twice = encodeURIComponent([...KEY].map((c) => `%${c.charCodeAt(0).toString(16)}`).join(''));
    expect(redactor.text(`u=${twice}&`)).toBe(`u=${KEY_PLACEHOLDER}&`);
  });
});

describe('Redactor, a key shorter than 16 characters', () => {
  const redactor = (key: string) => new Redactor().add(key, KEY_PLACEHOLDER);

  test.each([
    ['a short secret, found as a token', 'shortsecret1'],
    ['a long one, found inside text', 'a-long-secret-qrstuvwxyz'],
  ])('%s registered after a text was redacted: that text is redacted again, not taken from what was done before', (_d, secret) => {
    const redactor = new Redactor().add('the-key-0123456789abcdef', KEY_PLACEHOLDER);
    const text = `rejected Bearer ${secret}.`;
    expect(redactor.text(text)).toBe(text);
    redactor.add(secret, '[capture-credential-1]');
    expect(redactor.text(text)).toBe('rejected Bearer [capture-credential-1].');
  });

  test.each(['name', 'test', 'true', '1234', 'secret', 'dev'])('%s inside text is evidence and stays; as a whole token it goes', (key) => {
    const body = `{"id":1234,"name":"${key}s","description":"a ${key} here"}`;
    expect(redactor(key).text(body)).toBe(body);
    expect(redactor(key).body(body)).toBe(body);
    expect(redactor(key).text(key)).toBe(KEY_PLACEHOLDER);
    expect(redactor(key).text(`rejected Bearer ${key}.`)).toBe(`rejected Bearer ${KEY_PLACEHOLDER}.`);
    expect(redactor(key).text(`basic ${Buffer.from(key).toString('base64')}`)).toBe(`basic [base64 of ${KEY_PLACEHOLDER}]`);
    expect(redactor(key).body(`{"echo":"${key}","${key}":1}`)).toBe(`{"echo":"${KEY_PLACEHOLDER}","${key}":1}`);
  });

  test('near misses stay: a longer token, another case, a member name', () => {
    expect(redactor('test').text('Bearer tests')).toBe('Bearer tests');
    expect(redactor('test').text('Bearer TEST')).toBe('Bearer TEST');
    expect(redactor('test').text('{"test" : 1}')).toBe('{"test" : 1}');
    expect(redactor('test').text('"tests"')).toBe('"tests"');
  });

  test.each(['"', '<', '\\', '${x}'])('the key %s is replaced as a whole JSON string, and the JSON stays valid', (key) => {
    const body = JSON.stringify({ code: 'unauthorized', message: key, status: 401 });
    const out = redactor(key).body(body);
    expect(JSON.parse(out)).toEqual({ code: 'unauthorized', message: KEY_PLACEHOLDER, status: 401 });
  });

  test('says why it is short, once, with the length; a long key needs no notice', () => {
    expect(shortSecretNotice('the key', 'test')).toBe(
      'the key is 4 characters long: it is removed from requests and headers, but where the server echoes it inside text it may stay (16 characters or more are redacted everywhere)',
    );
    expect(shortSecretNotice('the key', KEY)).toBeUndefined();
  });
});

describe('Redactor, binary previews', () => {
  const key = 'sk_live_4f9/Qz+8KxYw7Tq2LmNp0RsUv';
  test('a key cut by the preview edge: every run of 8 or more of its characters goes', () => {
    const redactor = new Redactor().add(key, KEY_PLACEHOLDER);
    const preview = Buffer.from(`\xff\xfe header: Bearer ${key.slice(0, 20)}`, 'latin1');
    const out = redactor.preview(preview).toString('latin1');
    expect(out).toBe(`\xff\xfe header: Bearer ${KEY_PLACEHOLDER}`);
    const tail = Buffer.from(`${key.slice(-9)} end\xff`, 'latin1');
    expect(redactor.preview(tail).toString('latin1')).toBe(`${KEY_PLACEHOLDER} end\xff`);
  });

  test.each([
    ['Z', 'z', '[', '{'],
    ['A', 'a', '@', '`'],
  ])('pieces match %s as %s, the last letter in either case; %s, beside it, is not %s', (letter, lower, neighbour, shifted) => {
    const redactor = new Redactor().add(`${letter.repeat(4)}${neighbour.repeat(4)}${letter.repeat(4)}${neighbour.repeat(4)}-long-enough`, KEY_PLACEHOLDER);
    const run = (l: string, n: string) => Buffer.from(`\xff ${l.repeat(4)}${n.repeat(4)}${l.repeat(4)} \xff`, 'latin1');
    expect(redactor.preview(run(lower, neighbour)).toString('latin1')).toBe(`\xff ${KEY_PLACEHOLDER} \xff`);
    expect(redactor.preview(run(lower, shifted))).toEqual(run(lower, shifted));
  });

  test('a run of 7 characters, or none, leaves the bytes as they are', () => {
    const redactor = new Redactor().add(key, KEY_PLACEHOLDER);
    const bytes = Buffer.from(`x ${key.slice(3, 10)} \x00\xff`, 'latin1');
    expect(redactor.preview(bytes)).toBe(bytes);
  });
});

/** The example credentials for a key, their secrets registered as the run registers them. */
function invalidCredentials(key: string, redactor: Redactor, _seed: number): InvalidCredential[] {
  const credentials = exampleCredentials(key, '0123456789abcdef01234567');
  for (const credential of credentials) redactor.addDerived(credential.secrets ?? []);
  return credentials;
}

describe('exampleCredentials', () => {
  test('are all different from the valid header and each other', () => {
    const variants = invalidCredentials(KEY, new Redactor(), 1);
    const headers = variants.map((v) => v.header);
    expect(headers).not.toContain(`Bearer ${KEY}`);
    expect(new Set(headers).size).toBe(headers.length);
    expect(variants.map((v) => v.name)).toEqual([
      'missing', 'unknown-key', 'empty-token', 'basic-scheme', 'no-scheme',
      'key-char-added', 'key-char-removed', 'key-char-changed', 'key-case-swapped',
    ]);
  });

  test('none differs from the valid header only by whitespace HTTP strips', () => {
    for (const variant of invalidCredentials(KEY, new Redactor(), 1)) {
      expect(variant.header?.trim()).not.toBe(`Bearer ${KEY}`);
    }
  });

  test('show no key material, and carry every derived token as a secret to register', () => {
    const redactor = new Redactor().add(KEY, KEY_PLACEHOLDER);
    const variants = invalidCredentials(KEY, redactor, 1);
    for (const variant of variants) {
      expect(variant.shown ?? '').not.toContain(KEY.slice(0, 8));
      if (variant.header) expect(redactor.text(variant.header)).not.toContain(KEY.slice(0, 8));
    }
    expect(variants.find((v) => v.name === 'key-char-removed')?.shown).toBe('Bearer ${PETSTORE_API_KEY%?}');
  });

  test.each(['keyX', 'keyx', 'keyY', 'key7'])('the changed last character of %s differs in any case', (key) => {
    const changed = invalidCredentials(key, new Redactor(), 1).find((v) => v.name === 'key-char-changed')!;
    const token = changed.header!.slice('Bearer '.length);
    expect(token.toLowerCase()).not.toBe(key.toLowerCase());
    expect(token.slice(0, -1)).toBe(key.slice(0, -1));
  });

  test('a key without letters has no case-swapped variant', () => {
    const swapped = invalidCredentials('1234567890', new Redactor(), 1).find((v) => v.name === 'key-case-swapped');
    expect(swapped?.unavailable).toMatch(/no letters/);
    expect(swapped?.header).toBeUndefined();
  });
});

describe('exampleCredentials, for any key', () => {
  // token68 characters (RFC 9110 §11.2), the alphabet of bearer tokens.
  const key = fc.stringMatching(/^[A-Za-z0-9\-._~+/]{2,48}$/);

  test('each variant is invalid, one edit away where it claims, and shows no key material', () => {
    fc.assert(
      fc.property(key, (apiKey) => {
        const redactor = new Redactor().add(apiKey, KEY_PLACEHOLDER);
        const byName = new Map(invalidCredentials(apiKey, redactor, 1).map((v) => [v.name, v]));
        const token = (name: string) => byName.get(name)!.header!.replace(/^Bearer /, '');
        for (const variant of byName.values()) {
          if (variant.header !== undefined) expect(variant.header.trim()).not.toBe(`Bearer ${apiKey}`);
          if (apiKey.length >= 8) expect(variant.shown ?? '').not.toContain(apiKey);
        }
        expect(token('key-char-added')).toBe(`${apiKey}x`);
        expect(token('key-char-removed')).toBe(apiKey.slice(0, -1));
        expect(token('key-char-changed').toLowerCase()).not.toBe(apiKey.toLowerCase());
        expect(token('key-char-changed').slice(0, -1)).toBe(apiKey.slice(0, -1));
        const swapped = byName.get('key-case-swapped')!;
        if (swapped.header) expect(token('key-case-swapped').toLowerCase()).toBe(apiKey.toLowerCase());
        else expect(apiKey.toLowerCase()).toBe(apiKey.toUpperCase());
      }),
      { seed: 20261121, numRuns: 500 },
    );
  });
});

describe('Redactor, escaped echoes', () => {
  const key = 'Abc/def+ghi~jkl.mno_pqr';
  const redactor = () => new Redactor().add(key, KEY_PLACEHOLDER);
  test.each([
    ['JSON with / escaped (PHP)', key.replaceAll('/', '\\/')],
    ['JSON with every character \\u-escaped', [...key].map((c) => `\\u${c.charCodeAt(0).toString(16).padStart(4, '0')}`).join('')],
    ['JSON with upper-case \\u escapes', [...key].map((c) => `\\u${c.charCodeAt(0).toString(16).toUpperCase().padStart(4, '0')}`).join('')],
    ['percent-encoding', encodeURIComponent(key)],
    ['decimal HTML references', [...key].map((c) => `&#${c.charCodeAt(0)};`).join('')],
    ['hexadecimal and named HTML references', key.replaceAll('/', '&sol;').replaceAll('+', '&#x2B;')],
  ])('%s is found and replaced', (_what, echoed) => {
    const out = redactor().text(`seen: ${echoed}.`);
    expect(out).toBe(`seen: ${KEY_PLACEHOLDER}.`);
  });

  test.each([0, 1, 2])('base64 with the key after %i other bytes (a Basic header) is found', (align) => {
    const encoded = Buffer.from(`${'u:'.slice(0, align)}${key}!`).toString('base64');
    expect(redactor().text(`Basic ${encoded}`)).not.toContain(encoded.slice(4, 16));
    expect(redactor().text(`Basic ${encoded}`)).toContain(`[base64 of ${KEY_PLACEHOLDER}]`);
  });

  test('an escaped echo inside a JSON body leaves the body valid JSON', () => {
    const body = JSON.stringify({ message: `bad ${key}` }).replaceAll('/', '\\/');
    const out = redactor().body(body);
    expect(JSON.parse(out)).toEqual({ message: `bad ${KEY_PLACEHOLDER}` });
  });

  test('escapes that hold no secret are left as they are', () => {
    const text = 'caf\\u00e9 &amp; 50%25 &notanentity; \\n';
    expect(redactor().text(text)).toBe(text);
  });
});

describe('secrets registered by a check reach the runner before its line is printed', () => {
  test('the collector hands them over first', async () => {
    const { CheckCollector } = await import('../../src/runner/collector.js');
    const order: string[] = [];
    const collector = new CheckCollector(
      () => order.push('printed'),
      (secrets) => order.push(`secrets ${secrets.map((s) => s.shown).join(',')}`),
    );
    const meta: CheckMeta = { id: 'c', runId: 'r1', title: 'c', clause: '5', level: 'must', requirements: [], exchanges: [], created: [], secrets: [{ value: 'derived-secret', shown: '${K}x' }] };
    collector.onTestResult({ name: 'c', fullName: 'c', meta, state: 'passed', durationMs: 1 });
    expect(order).toEqual(['secrets ${K}x', 'printed']);
  });
});

describe('Redactor, a key split across response headers', () => {
  const key = 'sk_live_4f9/Qz+8KxYw7Tq2LmNp0RsUv';
  test('each half, 8 characters or more, is replaced in its header; a 7-character piece stays', () => {
    const redactor = new Redactor().add(key, KEY_PLACEHOLDER);
    expect(redactor.header(`part=${key.slice(0, 17)}`)).toBe(`part=${KEY_PLACEHOLDER}`);
    expect(redactor.header(`${key.slice(17)}; path=/`)).toBe(`${KEY_PLACEHOLDER}; path=/`);
    expect(redactor.header(`v=${key.slice(3, 10)}`)).toBe(`v=${key.slice(3, 10)}`);
  });
});

describe('Redactor, pieces of a key in any case, in headers and in JSON bodies', () => {
  const key = 'sk_live_4f9/Qz+8Kx7=mN2pL0vR5tW3yB';
  const swapped = (text: string) => text.replace(/[a-z]/gi, (c) => (c === c.toLowerCase() ? c.toUpperCase() : c.toLowerCase()));
  test.each([
    ['8 characters, as sent', key.slice(5, 13), true],
    ['8 characters, case-swapped', swapped(key.slice(5, 13)), true],
    ['7 characters (the near miss)', key.slice(5, 12), false],
    ['7 characters, case-swapped', swapped(key.slice(5, 12)), false],
  ])('a header holding %s: replaced %s', (_what, piece, replaced) => {
    const redactor = new Redactor().add(key, KEY_PLACEHOLDER);
    expect(redactor.header(`x-e: ${piece};`)).toBe(replaced ? `x-e: ${KEY_PLACEHOLDER};` : `x-e: ${piece};`);
  });

  test('the key split across two header fields, case-swapped, leaves no piece of 8', () => {
    const redactor = new Redactor().add(key, KEY_PLACEHOLDER);
    const [first, second] = [`Bearer ${swapped(key.slice(0, 12))}`, swapped(key.slice(12))];
    expect(redactor.header(first)).toBe(`Bearer ${KEY_PLACEHOLDER}`);
    expect(redactor.header(second)).toBe(KEY_PLACEHOLDER);
  });

  test('the key split across two JSON strings of a body: both pieces go, and the body stays JSON', () => {
    const redactor = new Redactor().add(key, KEY_PLACEHOLDER);
    const body = JSON.stringify({ echo1: `Bearer ${key.slice(0, 13)}`, echo2: key.slice(13) });
    const out = redactor.responseBody(body);
    expect(JSON.parse(out)).toEqual({ echo1: `Bearer ${KEY_PLACEHOLDER}`, echo2: KEY_PLACEHOLDER });
    // The near miss: a 7-character piece of the key in a body is the body's own.
    const near = JSON.stringify({ echo: key.slice(13, 20) });
    expect(redactor.responseBody(near)).toBe(near);
  });
});

describe('Redactor, pieces at their edges', () => {
  test('two runs of the key that touch become one placeholder, not two', () => {
    const key = 'sk_live_4f9/Qz+8Kx7=mN2pL0vR5tW3yB';
    const redactor = new Redactor().add(key, KEY_PLACEHOLDER);
    expect(redactor.header(`${key.slice(0, 8)}${key.slice(20, 28)};`)).toBe(`${KEY_PLACEHOLDER};`);
  });

  test('a piece never takes a backslash with it: a JSON body holding a piece next to an escape stays JSON', () => {
    const key = 'k3y\\w1thbackslash-0123456789';
    const redactor = new Redactor().add(key, KEY_PLACEHOLDER);
    const body = JSON.stringify({ echo: `y\\${key.slice(4, 14)}` });
    const out = redactor.responseBody(body);
    expect(() => JSON.parse(out)).not.toThrow();
    expect(out).not.toContain(key.slice(4, 12));
  });

  // Found by issue 46's property once its keys held the characters JSON and HTML escape (issue 59).
  test('a piece whose `"` the decoded view meets at the string’s own closing quote: the rest goes, the quote stays, the body stays JSON', () => {
    const key = 'V<\\F>Lu\\s--8"zrQ\\-e<';
    const redactor = new Redactor().add(key, KEY_PLACEHOLDER);
    const out = redactor.responseBody(JSON.stringify({ message: key.slice(1, -8) }));
    expect(JSON.parse(out)).toEqual({ message: KEY_PLACEHOLDER });
    // The near miss: the same piece with its `"` escaped in the body is the key's own, and goes with it.
    expect(JSON.parse(redactor.responseBody(JSON.stringify({ message: key.slice(1, -7) })))).toEqual({ message: KEY_PLACEHOLDER });
  });

  test('text that starts with `"` and is no JSON document: a piece holding `"` is found as written', () => {
    const key = 'AAAAAAAAA""AAAA"AAAAAA';
    const redactor = new Redactor().add(key, KEY_PLACEHOLDER);
    expect(redactor.header(key.slice(9))).toBe(KEY_PLACEHOLDER);
    // The near miss: in a JSON document, a `"` of its own that would complete a piece is a delimiter, kept.
    const quoted = new Redactor().add('abcdefg"zzzzzzzzzzzz', KEY_PLACEHOLDER);
    expect(quoted.responseBody('["abcdefg"]')).toBe('["abcdefg"]');
  });
});

describe('Redactor, no run of 8 characters of a long secret in any encoding, at any offset (property per encoding)', () => {
  const filler = fc.string({ unit: fc.constantFrom(...' :;=,|abcXYZ019'), maxLength: 6 });
  test.each(Object.keys(ENCODINGS) as Array<keyof typeof ENCODINGS>)('%s: gone from text, headers and JSON bodies, the body still JSON', (name) => {
    fc.assert(
      fc.property(echoArbitrary, filler, filler, ({ secret, drop, cut }, before, after) => {
        const redactor = new Redactor().add(secret, KEY_PLACEHOLDER);
        const echoed = ENCODINGS[name](secret.slice(drop, secret.length - cut));
        const text = `${before}${echoed}${after}`;
        const body = JSON.stringify({ message: text });
        const outputs = [redactor.text(text), redactor.header(text), redactor.responseBody(body), redactor.body(body)];
        expect(outputs.flatMap((output) => piecesIn(secret, output))).toEqual([]);
        expect(JSON.parse(outputs[2]!)).toHaveProperty('message');
      }),
      { seed: 20261127, numRuns: 200 },
    );
  });

  test.each([
    ['as written', (text: string) => text],
    ['percent-encoded twice', ENCODINGS['percent-encoded twice']],
    ['JSON \\u escapes', ENCODINGS['JSON \\u escapes']],
  ])('a piece is 8 characters of the secret, decoded: 7 %s stay, 8 go', (_name, encode) => {
    const secret = 'sk_live_4f9/Qz+8Kx7=mN2pL0vR5tW3yB';
    const redactor = new Redactor().add(secret, KEY_PLACEHOLDER);
    expect(redactor.text(`x ${encode(secret.slice(9, 16))} y`)).toBe(`x ${encode(secret.slice(9, 16))} y`);
    expect(redactor.text(`x ${encode(secret.slice(9, 17))} y`)).toBe(`x ${KEY_PLACEHOLDER} y`);
  });

  test.each([
    ['base64', Buffer.from('sk_live_4f9/Qz+8Kx7=mN2pL0vR5tW3yB').toString('base64').slice(4), 'base64'],
    ['hex', Buffer.from('sk_live_4f9/Qz+8Kx7=mN2pL0vR5tW3yB').toString('hex').slice(4), 'hex'],
  ])('in %s, a piece is 8 characters of the encoded form: 7 stay, 8 go', (_name, encoded, kind) => {
    const redactor = new Redactor().add('sk_live_4f9/Qz+8Kx7=mN2pL0vR5tW3yB', KEY_PLACEHOLDER);
    expect(redactor.text(`x ${encoded.slice(0, 7)} y`)).toBe(`x ${encoded.slice(0, 7)} y`);
    expect(redactor.text(`x ${encoded.slice(0, 8)} y`)).toBe(`x [${kind} of ${KEY_PLACEHOLDER}] y`);
  });

  test('beside a whole key, what a piece adds is hidden only where it is a piece on its own: 7 characters stay, 8 go', () => {
    const secret = 'sk_live_4f9/Qz+8Kx7=mN2pL0vR5tW3yB';
    // A capture's credential that holds the key after a word: its pieces run over the key's edge.
    const redactor = new Redactor().add(secret, KEY_PLACEHOLDER).add(`Bearer ${secret}!`, '[c1]').add(`Bearers ${secret}!`, '[c2]');
    expect(redactor.text(`Bearer ${secret};`)).toBe(`Bearer ${KEY_PLACEHOLDER};`);
    expect(redactor.text(`Bearers ${secret};`)).toBe(`[c2]${KEY_PLACEHOLDER};`);
  });

  test('two keys side by side stay two placeholders; a piece beside a whole key is hidden with it', () => {
    const secret = 'sk_live_4f9/Qz+8Kx7=mN2pL0vR5tW3yB';
    const redactor = new Redactor().add(secret, KEY_PLACEHOLDER);
    expect(redactor.text(`${secret}${secret}`)).toBe(`${KEY_PLACEHOLDER}${KEY_PLACEHOLDER}`);
    expect(redactor.text(`${secret}${secret.slice(0, 10)}!`)).toBe(`${KEY_PLACEHOLDER}${KEY_PLACEHOLDER}!`);
  });
});

describe('base64Forms: the base64 cores of a secret at each alignment (secrets/encoded-forms.ts)', async () => {
  const { base64Forms } = await import('../../src/secrets/encoded-forms.js');
  test('a core of exactly 8 characters is a form (6 bytes at alignment 0); near miss: a core of 7 is none', () => {
    expect(base64Forms('abcdef')).toContain('YWJjZGVm');
    // 'abcde' at alignment 0 has 6 characters of its own; at 1 and 2, 6 and 7 again: no form of 8.
    expect(base64Forms('abcde')).toEqual([]);
  });

  test('each core is the characters wholly inside the secret\'s bits, no more, no fewer', () => {
    // base64 of 'abcdefgh' after 0, 1 and 2 zero bytes: YWJjZGVmZ2g=, AGFiY2RlZmdo, AABhYmNkZWZnaA==.
    // Character i holds bits [6i, 6i + 6); the secret's are [8a, 8a + 64): characters 0–9, 2–11, 3–12.
    expect(base64Forms('abcdefgh')).toEqual(['YWJjZGVmZ2', 'FiY2RlZmdo', 'hYmNkZWZna']);
  });
});

describe('Redactor.own: the tool\'s words and the user\'s values lose whole secrets, never pieces', () => {
  const KEY = 'petstore-staging-7f3a9c1e5b2d4680';
  const redactor = () => new Redactor().add(KEY, KEY_PLACEHOLDER);
  test.each([
    ['a path sharing 9 characters with the key: whole', '/srv/petstore-conformance/reports', '/srv/petstore-conformance/reports'],
    ['a base URL sharing 16 characters: whole', 'https://petstore-staging-7.example.com/v1', 'https://petstore-staging-7.example.com/v1'],
    ['near miss: the whole key in the path', `/srv/${KEY}/reports`, `/srv/${KEY_PLACEHOLDER}/reports`],
    ['near miss: the whole key percent-encoded', `/srv/${encodeURIComponent(`${KEY}/`)}x`, `/srv/${KEY_PLACEHOLDER}%2Fx`],
    ['near miss: the whole key upper-cased', `/srv/${KEY.toUpperCase()}`, `/srv/${KEY_PLACEHOLDER}`],
  ])('%s', (_what, value, shown) => expect(redactor().own(value)).toBe(shown));

  test('near miss: the same path as a server\'s words (Redactor.text) loses the piece', () => {
    expect(redactor().text('/srv/petstore-staging-7f3a/reports')).not.toContain('petstore-staging-7f3a');
    expect(redactor().own('/srv/petstore-staging-7f3a/reports')).toBe('/srv/petstore-staging-7f3a/reports');
  });
});

describe('Redactor.mixed: the wire\'s words beside the user\'s own values', () => {
  const KEY = 'petstore-staging-7f3a9c1e5b2d4680';
  const redactor = () => new Redactor().add(KEY, KEY_PLACEHOLDER);
  const PATH = '/srv/petstore-staging-7f3a/reports/report.json';
  test('a piece inside the user\'s path stays; the same piece in the server\'s words beside it goes', () => {
    const shown = redactor().mixed(`Reproduce: replay ${PATH} F1\n  the server said: petstore-staging-7f3a`, [PATH.replace('/report.json', '')]);
    expect(shown).toContain(`replay ${PATH} F1`);
    expect(shown).toContain('the server said: ${PETSTORE_API_KEY}');
  });
  test('near miss: the whole key inside the user\'s path still goes', () => {
    expect(redactor().mixed(`/srv/${KEY}/r`, [`/srv/${KEY}/r`])).toBe(`/srv/${KEY_PLACEHOLDER}/r`);
  });
  test('near miss: no own value given, as text', () => {
    expect(redactor().mixed(PATH, [])).toBe(redactor().text(PATH));
  });
});

/**
 * A key holding `"` or `\` (issue 59): a piece around that character was left, since no
 * piece could hold one (a JSON document's own `"` must survive). Pieces that hold one are
 * now looked for in text that is no JSON document, and in the decoded view of escaped text.
 */
describe('Redactor, a key with " and \\ in it', () => {
  const KEY = 'abcdefg"hijklmno\\pqrstuvwxyz0123';
  const redactor = () => new Redactor().add(KEY, KEY_PLACEHOLDER);
  const around = (at: string) => KEY.slice(KEY.indexOf(at) - 6, KEY.indexOf(at) + 7);
  test.each(['"', '\\'])('a cut of 13 characters around %s: gone from a header value, and from a JSON body that stays JSON', (character) => {
    const piece = around(character);
    expect(redactor().header(`Bearer ${piece}`)).toBe(`Bearer ${KEY_PLACEHOLDER}`);
    const body = JSON.stringify({ message: `bad token ${piece}!` });
    const redacted = redactor().responseBody(body);
    expect(() => JSON.parse(redacted)).not.toThrow();
    expect(JSON.parse(redacted).message).toBe(`bad token ${KEY_PLACEHOLDER}!`);
  });

  test('near miss: in a JSON document\'s own text, a `"` that delimits a string is never taken as the key\'s', () => {
    // The key holds `:"`, as a member and its value do: the piece inside the string goes, the document stays JSON.
    const shown = new Redactor().add('secret-key:"value-0123456789', KEY_PLACEHOLDER).responseBody('{"n":"value-0123"}');
    expect(JSON.parse(shown)).toEqual({ n: KEY_PLACEHOLDER });
  });

  test('near miss: 7 characters of the key beside its " (no piece of 8) stay', () => {
    const seven = KEY.slice(KEY.indexOf('"') - 6, KEY.indexOf('"') + 1);
    expect(redactor().header(`x ${seven} y`)).toBe(`x ${seven} y`);
  });
});
