import fc from 'fast-check';
import { NO_CREDENTIAL, type Credential } from '../http/credential.js';
import { KEY_PLACEHOLDER, KEY_VARIABLE } from '../secrets/redactor.js';
import { covers, type CoverageInput } from './coverage.js';

/** Characters a bearer token may hold (token68, RFC 9110 §11.2). */
const TOKEN68 = [...'ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789-._~+/'];

/**
 * A credential that must be refused with 401 (spec 5/R2), with the key material it holds:
 * the caller registers `secrets` with its redactor before sending, so that nothing the
 * credential carries is ever printed. `unavailable` says why this key admits no such
 * credential (then there is no header either).
 */
export interface InvalidCredential extends Credential {
  /** Tokens derived from the key, each with the form it is shown in (a shell expansion of the key variable). */
  secrets?: ReadonlyArray<{ value: string; shown: string }>;
  /** The credential's form in a few symbols, for a failure to name it: `Basic base64(KEY:)`. */
  notation?: string;
  unavailable?: string;
}

/** One way to make a credential invalid, declared once for the example checks and the generated ones. */
interface Mutation<P> {
  /** The name of the credentials it generates. */
  kind: string;
  /** The parameters it varies over for this key; undefined when the key admits none. */
  parameters(key: string): fc.Arbitrary<P> | undefined;
  /** The representative the example checks send (`create-401-<name>`, titled with `description`), or generated only. */
  example?: { name: string; description: string; parameters(key: string, seed: string): P | { unavailable: string } };
  /** The parameters the coverage phase sends, beyond the example: every run sends them, whatever the seed. */
  coverage?(key: string): P[];
  /** The coverage phase sends them on listCategories alone (both operations by default): a form no server treats apart by operation. */
  coveredOn?: 'list';
  make(key: string, parameters: P): InvalidCredential;
}

const K = KEY_VARIABLE;

/** A bearer credential whose token is derived from the key. */
function derived(kind: string, description: string, token: string, shownToken: string): InvalidCredential {
  return { name: kind, description, header: `Bearer ${token}`, shown: `Bearer ${shownToken}`, secrets: [{ value: token, shown: shownToken }] };
}

/**
 * A POSIX sh command substitution that computes a value from the key with node, for what
 * no parameter expansion computes (base64): `$(node -p 'btoa(process.env.PETSTORE_API_KEY)')`.
 * It holds no `"`, `\` or backquote, which the replay's double quotes would escape; its
 * literals travel as arguments (`process.argv[1]`).
 */
export function nodeExpansion(js: string, ...args: string[]): string {
  return `$(node -p '${js}'${args.map((arg) => ` ${arg}`).join('')})`;
}

/**
 * A POSIX sh command substitution that writes bytes, for a token whose bytes are not the
 * UTF-8 of its characters as sh would write them (a Latin-1 byte alone; undici sends a
 * header's characters as Latin-1 bytes): `$(node -e 'process.stdout.write(…)' c3a9 hex)`.
 */
function bytesExpansion(js: string, ...args: string[]): string {
  return `$(node -e 'process.stdout.write(${js})'${args.map((arg) => ` ${arg}`).join('')})`;
}

/** The key in a {@link nodeExpansion}. */
const ENV_KEY = `process.env.${K}`;

/**
 * Characters `from` to `to` of the key, as sh computes them: POSIX has no substring
 * expansion (`${K:0:3}` is bash's), so node slices it.
 */
const slice = (from: number, to?: number) => nodeExpansion(`${ENV_KEY}.slice(${from}${to === undefined ? '' : `,${to}`})`);

/** The key without its last character: a POSIX expansion (the shortest suffix matching `?` removed). */
const WITHOUT_LAST = `\${${K}%?}`;

/** A character's case swapped, in node: every letter of the key, or those at the positions given as arguments. */
const SWAP = 'c===c.toUpperCase()?c.toLowerCase():c.toUpperCase()';
const SWAP_ALL = `[...${ENV_KEY}].map(c=>${SWAP}).join(String())`;
const SWAP_SOME = `[...${ENV_KEY}].map((c,i)=>process.argv.includes(String(i))?${SWAP}:c).join(String())`;

/** How a Basic credential carries the key (RFC 7617 §2: base64 of user-id ":" password). */
type BasicForm = 'user' | 'password' | 'both';

/** Each Basic form: its words, its notation, the user-pass it encodes, and that pair as node computes it. */
const BASIC_FORMS: Record<BasicForm, { words: string; notation: string; pair: (key: string) => string; js: string }> = {
  user: { words: 'the valid key as a Basic user name', notation: 'Basic base64(KEY:)', pair: (key) => `${key}:`, js: `${ENV_KEY}+process.argv[1]` },
  password: { words: 'the valid key as a Basic password', notation: 'Basic base64(:KEY)', pair: (key) => `:${key}`, js: `process.argv[1]+${ENV_KEY}` },
  both: { words: 'the valid key as Basic user name and password', notation: 'Basic base64(KEY:KEY)', pair: (key) => `${key}:${key}`, js: `${ENV_KEY}+process.argv[1]+${ENV_KEY}` },
};

/** Tokens that are true in an SQL comparison a server builds as text (OWASP WSTG-ATHN-04). */
const SQL_TAUTOLOGIES = ["x' OR '1'='1", "' OR 1=1 --", 'x" OR "1"="1'] as const;

/** Cyrillic letters that look like Latin ones (Unicode's confusables, TR39). */
const CONFUSABLES: Readonly<Record<string, string>> = { a: 'а', c: 'с', e: 'е', o: 'о', p: 'р', x: 'х', y: 'у', A: 'А', B: 'В', C: 'С', E: 'Е', H: 'Н', K: 'К', M: 'М', O: 'О', P: 'Р', T: 'Т', X: 'Х' };

/** Characters outside ASCII in a token: each form's words, notation, and its bytes at a position (undefined where it has none). */
type NonAsciiForm = 'latin-1' | 'utf-8' | 'astral' | 'fullwidth' | 'confusable';
const NON_ASCII_FORMS: readonly NonAsciiForm[] = ['latin-1', 'utf-8', 'astral', 'fullwidth', 'confusable'];
const appended = (bytes: Buffer) => (key: string, i: number) => (i === key.length - 1 ? { bytes, replaces: false } : undefined);
const NON_ASCII: Record<NonAsciiForm, { words: (i: number) => string; notation: (i: number) => string; at(key: string, i: number): { bytes: Buffer; replaces: boolean } | undefined }> = {
  'latin-1': { words: () => 'the valid key followed by the byte E9 (é in Latin-1, not UTF-8)', notation: () => 'Bearer KEY<E9>', at: appended(Buffer.from([0xe9])) },
  'utf-8': { words: () => 'the valid key followed by é in UTF-8', notation: () => 'Bearer KEYé', at: appended(Buffer.from('é')) },
  astral: { words: () => 'the valid key followed by an emoji (4 bytes of UTF-8)', notation: () => 'Bearer KEY😀', at: appended(Buffer.from('😀')) },
  fullwidth: {
    words: (i) => `the valid key with character ${i} in its fullwidth form (NFKC folds it back)`,
    notation: (i) => `Bearer KEY[${i}→fullwidth]`,
    at: (key, i) => (/[!-~]/.test(key[i] ?? '') ? { bytes: Buffer.from(String.fromCodePoint(key.codePointAt(i)! + 0xfee0)), replaces: true } : undefined),
  },
  confusable: {
    words: (i) => `the valid key with character ${i} replaced by its Cyrillic look-alike`,
    notation: (i) => `Bearer KEY[${i}→Cyrillic]`,
    at: (key, i) => (CONFUSABLES[key[i] ?? ''] ? { bytes: Buffer.from(CONFUSABLES[key[i]!]!), replaces: true } : undefined),
  },
};

/** Java's String.hashCode (UTF-16 units, 32-bit): what a HashMap of keys compares first. */
export function javaHashCode(text: string): number {
  let hash = 0;
  for (let i = 0; i < text.length; i++) hash = (Math.imul(hash, 31) + text.charCodeAt(i)) | 0;
  return hash;
}

/** The key with characters `i` and `i + 1` changed by `step` and `-31 × step`: another token with its {@link javaHashCode}. */
function withHashCollision(key: string, i: number, step: 1 | -1): string {
  const at = (j: number, by: number) => String.fromCharCode(key.charCodeAt(j) + by);
  return key.slice(0, i) + at(i, step) + at(i + 1, -31 * step) + key.slice(i + 2);
}

/** The positions and steps where {@link withHashCollision} keeps every character a visible ASCII one (a token a header carries as is). */
function hashCollisions(key: string): Array<[number, 1 | -1]> {
  const visible = (code: number) => code >= 0x21 && code <= 0x7e;
  const pairs: Array<[number, 1 | -1]> = [];
  for (let i = 0; i + 1 < key.length; i++) {
    for (const step of [1, -1] as const) {
      if (visible(key.charCodeAt(i) + step) && visible(key.charCodeAt(i + 1) - 31 * step)) pairs.push([i, step]);
    }
  }
  return pairs;
}

const declare = <P>(mutation: Mutation<P>) => mutation as Mutation<unknown>;
/** A token character that differs from `c` in any case, so a change does not also test case-insensitive comparison. */
const otherThan = (c: string) => ['x', 'y', '7'].find((other) => other !== c.toLowerCase())!;
const letterPositions = (key: string) => [...key].flatMap((c, i) => (c.toLowerCase() !== c.toUpperCase() ? [i] : []));

/**
 * Every kind of invalid credential, from the valid key: no header, an unknown key, an
 * empty token, another scheme, no scheme, a character added, removed or changed, letters'
 * case changed, the key followed by more, a proper prefix or suffix. None differs from the valid header only by
 * whitespace, which HTTP strips around field values (RFC 9110 §5.5).
 */
export const CREDENTIAL_MUTATIONS: ReadonlyArray<Mutation<unknown>> = [
  declare<null>({
    kind: 'missing',
    parameters: () => fc.constant(null),
    example: { ...NO_CREDENTIAL, parameters: () => null },
    make: () => ({ ...NO_CREDENTIAL }),
  }),
  declare<string>({
    kind: 'unknown-key',
    parameters: () => fc.stringMatching(/^[0-9a-f]{24}$/),
    example: { name: 'unknown-key', description: 'an unknown key as a bearer token', parameters: (_key, seed) => seed },
    make: (key, hex) => {
      const token = `pcs-invalid-${hex}${`pcs-invalid-${hex}` === key ? '0' : ''}`;
      return { name: 'unknown-key', description: 'an unknown key as a bearer token', header: `Bearer ${token}`, shown: `Bearer ${token}` };
    },
  }),
  declare<null>({
    kind: 'empty-token',
    parameters: () => fc.constant(null),
    example: { name: 'empty-token', description: 'the bearer scheme with an empty token', parameters: () => null },
    make: () => ({ name: 'empty-token', description: 'the bearer scheme with an empty token', header: 'Bearer ', shown: 'Bearer ' }),
  }),
  declare<string>({
    kind: 'other-scheme',
    parameters: () => fc.constantFrom('Basic', 'Token', 'Digest', 'ApiKey', 'Key'),
    example: { name: 'basic-scheme', description: 'the valid key under the Basic scheme', parameters: () => 'Basic' },
    coverage: () => ['Token', 'Digest', 'ApiKey', 'Key'],
    make: (key, scheme) => ({ name: 'other-scheme', description: `the valid key under the ${scheme} scheme`, notation: `${scheme} KEY`, header: `${scheme} ${key}`, shown: `${scheme} ${KEY_PLACEHOLDER}` }),
  }),
  declare<BasicForm>({
    // Payment APIs take the key as a Basic user name with any password: a server that also
    // decodes Basic credentials may accept the key so (5/R1 names the bearer scheme alone).
    kind: 'basic-encoded',
    parameters: () => fc.constantFrom<BasicForm>('user', 'password', 'both'),
    coverage: () => ['user', 'password', 'both'],
    make: (key, form) => {
      const { words, notation, pair, js } = BASIC_FORMS[form];
      const token = Buffer.from(pair(key)).toString('base64');
      const shownToken = nodeExpansion(`Buffer.from(${js}).toString(process.argv[2])`, ':', 'base64');
      return { name: 'basic-encoded', description: words, notation, header: `Basic ${token}`, shown: `Basic ${shownToken}`, secrets: [{ value: token, shown: shownToken }] };
    },
  }),
  declare<null>({
    // A gateway that decodes tokens it takes for base64 (or compares decoded values) accepts this.
    kind: 'bearer-base64',
    parameters: () => fc.constant(null),
    coverage: () => [null],
    make: (key) => ({
      ...derived('bearer-base64', 'the valid key base64-encoded as the bearer token', Buffer.from(key).toString('base64'), nodeExpansion(`Buffer.from(${ENV_KEY}).toString(process.argv[1])`, 'base64')),
      notation: 'Bearer base64(KEY)',
    }),
  }),
  declare<null>({
    // Authorization holds one credential (RFC 9110 §11.6.2); a server that splits a list and takes the first accepts this.
    kind: 'key-twice',
    parameters: () => fc.constant(null),
    coverage: () => [null],
    make: (key) => ({
      name: 'key-twice',
      description: 'the valid bearer credential twice in one Authorization header',
      notation: 'Bearer KEY, Bearer KEY',
      header: `Bearer ${key}, Bearer ${key}`,
      shown: `Bearer ${KEY_PLACEHOLDER}, Bearer ${KEY_PLACEHOLDER}`,
    }),
  }),
  declare<null>({
    kind: 'no-scheme',
    parameters: () => fc.constant(null),
    example: { name: 'no-scheme', description: 'the valid key without a scheme', parameters: () => null },
    make: (key) => ({ name: 'no-scheme', description: 'the valid key without a scheme', header: key, shown: KEY_PLACEHOLDER }),
  }),
  declare<[number, string]>({
    kind: 'key-char-added',
    parameters: (key) => fc.tuple(fc.integer({ min: 0, max: key.length }), fc.constantFrom(...TOKEN68)),
    example: { name: 'key-char-added', description: 'the valid key with one character appended', parameters: (key) => [key.length, 'x'] },
    coverage: () => [[0, 'x']],
    make: (key, [i, c]) =>
      derived('key-char-added', `the valid key with ${JSON.stringify(c)} inserted at ${i}`, key.slice(0, i) + c + key.slice(i), i === key.length ? `${KEY_PLACEHOLDER}${c}` : `${slice(0, i)}${c}${slice(i)}`),
  }),
  declare<number>({
    kind: 'key-char-removed',
    parameters: (key) => (key.length > 1 ? fc.integer({ min: 0, max: key.length - 1 }) : undefined),
    example: { name: 'key-char-removed', description: 'the valid key without its last character', parameters: (key) => (key.length > 1 ? key.length - 1 : { unavailable: 'the key has one character' }) },
    coverage: (key) => (key.length > 1 ? [0] : []),
    make: (key, i) => derived('key-char-removed', `the valid key without character ${i}`, key.slice(0, i) + key.slice(i + 1), i === key.length - 1 ? WITHOUT_LAST : `${slice(0, i)}${slice(i + 1)}`),
  }),
  declare<[number, string]>({
    kind: 'key-char-changed',
    parameters: (key) => (key.length > 1 ? fc.tuple(fc.integer({ min: 0, max: key.length - 1 }), fc.constantFrom(...TOKEN68)).filter(([i, c]) => key[i]!.toLowerCase() !== c.toLowerCase()) : undefined),
    example: { name: 'key-char-changed', description: 'the valid key with its last character changed', parameters: (key) => (key.length > 1 ? [key.length - 1, otherThan(key.at(-1)!)] : { unavailable: 'the key has one character' }) },
    coverage: (key) => (key.length > 1 ? [[0, otherThan(key[0]!)]] : []),
    make: (key, [i, c]) =>
      derived('key-char-changed', `the valid key with character ${i} changed to ${JSON.stringify(c)}`, key.slice(0, i) + c + key.slice(i + 1), i === key.length - 1 ? `${WITHOUT_LAST}${c}` : `${slice(0, i)}${c}${slice(i + 1)}`),
  }),
  declare<number[]>({
    kind: 'key-case-swapped',
    parameters: (key) => (letterPositions(key).length > 0 ? fc.subarray(letterPositions(key), { minLength: 1 }) : undefined),
    example: { name: 'key-case-swapped', description: 'the valid key with letter case swapped', parameters: (key) => (letterPositions(key).length > 0 ? letterPositions(key) : { unavailable: 'the key has no letters' }) },
    // One letter alone: a comparison that folds the case of some characters only.
    coverage: (key) => (letterPositions(key).length > 1 ? [[letterPositions(key)[0]!]] : []),
    make: (key, positions) => {
      const swap = (c: string) => (c === c.toUpperCase() ? c.toLowerCase() : c.toUpperCase());
      const token = [...key].map((c, i) => (positions.includes(i) ? swap(c) : c)).join('');
      const all = positions.length === letterPositions(key).length;
      // bash's ~~ is not POSIX: node swaps them, every letter or those at the positions given.
      const shown = all ? nodeExpansion(SWAP_ALL) : nodeExpansion(SWAP_SOME, ...positions.map(String));
      return derived('key-case-swapped', all ? 'the valid key with letter case swapped' : `the valid key with the case of ${positions.length} letter(s) changed`, token, shown);
    },
  }),
  declare<string>({
    // A comparison that stops at the key's length (startsWith, a fixed-size buffer) accepts these.
    kind: 'key-extended',
    parameters: () => fc.array(fc.constantFrom(...TOKEN68), { minLength: 1, maxLength: 8 }).map((chars) => chars.join('')),
    coverage: () => ['more'],
    make: (key, tail) => derived('key-extended', `the valid key followed by ${tail.length} more character(s)`, key + tail, `${KEY_PLACEHOLDER}${tail}`),
  }),
  declare<number>({
    kind: 'prefix',
    parameters: (key) => (key.length > 1 ? fc.integer({ min: 1, max: key.length - 1 }) : undefined),
    coverage: (key) => (key.length > 2 ? [Math.floor(key.length / 2)] : []),
    make: (key, n) => derived('prefix', `the valid key cut to its first ${n} characters`, key.slice(0, n), slice(0, n)),
  }),
  declare<number>({
    kind: 'suffix',
    parameters: (key) => (key.length > 1 ? fc.integer({ min: 1, max: key.length - 1 }) : undefined),
    coverage: (key) => (key.length > 2 ? [Math.floor(key.length / 2)] : []),
    make: (key, n) => derived('suffix', `the valid key cut to its last ${n} characters`, key.slice(-n), slice(-n)),
  }),
  declare<1 | 2>({
    // A server that decodes the token as a URL component (once, or at each of two layers) before comparing it.
    kind: 'key-percent-encoded',
    parameters: () => fc.constantFrom<1 | 2>(1, 2),
    coverage: () => [1, 2],
    coveredOn: 'list',
    make: (key, times) => {
      const once = [...Buffer.from(key)].map((byte) => `%${byte.toString(16).toUpperCase().padStart(2, '0')}`).join('');
      const js = `[...Buffer.from(${ENV_KEY})].map(b=>process.argv[1]+b.toString(16).toUpperCase().padStart(2,0)).join(String())`;
      return {
        ...derived('key-percent-encoded', `the valid key percent-encoded${times === 2 ? ' twice' : ''}, every byte`, times === 2 ? once.replaceAll('%', '%25') : once, nodeExpansion(js, times === 2 ? '%25' : '%')),
        notation: `Bearer ${times === 2 ? 'pct(pct(KEY))' : 'pct(KEY)'}`,
      };
    },
  }),
  declare<' ' | '\t'>({
    // A comparison of the first word alone (a split on whitespace, a regular expression without its end anchor).
    kind: 'key-second-word',
    parameters: () => fc.constantFrom<' ' | '\t'>(' ', '\t'),
    coverage: () => [' ', '\t'],
    coveredOn: 'list',
    make: (key, space) => ({
      ...derived('key-second-word', `the valid key followed by a second word after ${space === ' ' ? 'a space' : 'a tab'}`, `${key}${space}x`, `${KEY_PLACEHOLDER}${space}x`),
      notation: `Bearer KEY${space === ' ' ? ' ' : '<tab>'}x`,
    }),
  }),
  declare<[order: 'key-first' | 'key-last', joined: 'credentials' | 'tokens']>({
    // A server that splits a list on commas and takes the first item, or the last, or any (RFC 9110 §11.6.2: one credential).
    kind: 'key-and-another',
    parameters: () => fc.tuple(fc.constantFrom<'key-first' | 'key-last'>('key-first', 'key-last'), fc.constantFrom<'credentials' | 'tokens'>('credentials', 'tokens')),
    coverage: () => [
      ['key-first', 'tokens'],
      ['key-last', 'credentials'],
    ],
    coveredOn: 'list',
    make: (key, [order, joined]) => {
      const other = 'pcs-invalid-other';
      const [first, second] = order === 'key-first' ? [key, other] : [other, key];
      const [shownFirst, shownSecond] = order === 'key-first' ? [KEY_PLACEHOLDER, other] : [other, KEY_PLACEHOLDER];
      const join = (a: string, b: string) => (joined === 'credentials' ? `Bearer ${a}, Bearer ${b}` : `Bearer ${a},${b}`);
      const words = order === 'key-first' ? 'the valid key, then another' : 'another key, then the valid one';
      return { name: 'key-and-another', description: `${words}, as ${joined === 'credentials' ? 'two credentials' : 'one token with a comma'}`, notation: join(order === 'key-first' ? 'KEY' : 'OTHER', order === 'key-first' ? 'OTHER' : 'KEY'), header: join(first, second), shown: join(shownFirst, shownSecond) };
    },
  }),
  declare<[form: NonAsciiForm, position: number]>({
    // A comparison that decodes and normalises (NFKC folds fullwidth forms to ASCII, transliteration folds confusables), or one that throws on a character outside ASCII (Python's hmac.compare_digest on str).
    kind: 'key-non-ascii',
    parameters: (key) => fc.tuple(fc.constantFrom(...NON_ASCII_FORMS), fc.integer({ min: 0, max: Math.max(0, key.length - 1) })).filter(([form, i]) => NON_ASCII[form].at(key, i) !== undefined),
    coverage: (key) => NON_ASCII_FORMS.flatMap((form) => {
      const i = [...key].findIndex((_c, at) => NON_ASCII[form].at(key, at) !== undefined);
      return i < 0 ? [] : [[form, i] as [NonAsciiForm, number]];
    }),
    coveredOn: 'list',
    make: (key, [form, i]) => {
      const { words, notation } = NON_ASCII[form];
      const { bytes, replaces } = NON_ASCII[form].at(key, i)!;
      const token = key.slice(0, replaces ? i : key.length) + bytes.toString('latin1') + (replaces ? key.slice(i + 1) : '');
      const inserted = bytesExpansion('Buffer.from(process.argv[1],process.argv[2])', bytes.toString('hex'), 'hex');
      const shown = replaces ? `${i === 0 ? '' : slice(0, i)}${inserted}${slice(i + 1)}` : `${KEY_PLACEHOLDER}${inserted}`;
      return { ...derived('key-non-ascii', words(i), token, shown), notation: notation(i) };
    },
  }),
  declare<[position: number, step: 1 | -1]>({
    // A server that looks keys up by a hash and compares no further (Java's String.hashCode:
    // raising one character by 1 and lowering the next by 31 keeps it), computed from the key.
    kind: 'key-hash-collision',
    parameters: (key) => (hashCollisions(key).length > 0 ? fc.constantFrom(...hashCollisions(key)) : undefined),
    coverage: (key) => hashCollisions(key).slice(0, 1),
    coveredOn: 'list',
    make: (key, [i, step]) => {
      const token = withHashCollision(key, i, step);
      const js = `[...${ENV_KEY}].map((c,i)=>String.fromCharCode(c.charCodeAt(0)+(i==process.argv[1]?${step}:i-1==process.argv[1]?${-31 * step}:0))).join(String())`;
      return { ...derived('key-hash-collision', `another token with the valid key's Java String.hashCode (characters ${i} and ${i + 1} changed by ${step} and ${-31 * step})`, token, nodeExpansion(js, String(i))), notation: 'Bearer OTHER (hashCode(OTHER) = hashCode(KEY))' };
    },
  }),
  declare<string>({
    // A server that builds its key lookup as SQL text (OWASP WSTG-ATHN-04, "SQL injection").
    kind: 'sql-injection',
    parameters: () => fc.constantFrom(...SQL_TAUTOLOGIES),
    coverage: () => [SQL_TAUTOLOGIES[0]],
    coveredOn: 'list',
    make: (_key, token) => ({ name: 'sql-injection', description: 'an SQL tautology as the bearer token', notation: `Bearer ${token}`, header: `Bearer ${token}`, shown: `Bearer ${token}` }),
  }),
];

/** Valid means the bearer scheme (in any case, RFC 9110 §11.1), one or more spaces, and the key. */
const isValid = (header: string | undefined, key: string) => header !== undefined && /^bearer +/i.test(header) && header.replace(/^bearer +/i, '') === key;

/** A credential in words with its form: `the valid key as a Basic user name (Basic base64(KEY:))`; never the raw header. */
export function credentialWords(credential: InvalidCredential): string {
  return `${credential.description} (${credential.notation ?? credential.shown ?? 'no header'})`;
}

/** The credential, printing as {@link credentialWords} in counterexamples. */
function printable(credential: InvalidCredential): InvalidCredential {
  return Object.assign(credential, { [fc.toStringMethod]: () => credentialWords(credential) });
}

/**
 * Generated invalid credentials (spec 5/R2): every kind of {@link CREDENTIAL_MUTATIONS}
 * that the key admits, over all its parameters. Pure: the key material each holds is in
 * `secrets`, for the caller to register.
 */
export function invalidCredential(apiKey: string): fc.Arbitrary<InvalidCredential> {
  const kinds = CREDENTIAL_MUTATIONS.flatMap((mutation) => {
    const parameters = mutation.parameters(apiKey);
    return parameters ? [parameters.map((p) => printable(mutation.make(apiKey, p)))] : [];
  });
  // Shrinking crosses kinds toward the first, no header at all: the fewest changes a bypass needs.
  return fc.oneof({ withCrossShrink: true }, ...kinds).filter((credential) => !isValid(credential.header, apiKey));
}

/**
 * The invalid credentials of the example checks (`create-401-<name>`, `list-401-<name>`):
 * one representative of each kind that has one. `seed` (hex) picks the unknown key.
 */
export function exampleCredentials(apiKey: string, seed: string): InvalidCredential[] {
  return CREDENTIAL_MUTATIONS.flatMap((mutation) => {
    if (!mutation.example) return [];
    const { name, description } = mutation.example;
    const parameters = mutation.example.parameters(apiKey, seed);
    if (parameters !== null && typeof parameters === 'object' && 'unavailable' in parameters) {
      return [{ name, description, unavailable: parameters.unavailable as string }];
    }
    return [{ ...mutation.make(apiKey, parameters), name, description }];
  });
}

/** One credential of the coverage phase, and whether it is sent on both operations or on createCategory alone. */
export interface CoveredCredential {
  credential: InvalidCredential;
  /** `create`: the example checks already send it on both operations (create-401-*, list-401-*); `list`: a form sent on listCategories alone. */
  operations: 'both' | 'create' | 'list';
}

/**
 * The coverage phase of invalid credentials: every kind, whatever the seed. The example
 * checks' credentials again, on createCategory with a valid body (401 whatever the body,
 * and nothing created: what the property judges beyond them), and beyond them, on both
 * operations: each other scheme, a character added, removed or changed at the start, one
 * letter's case changed, the key followed by more, a prefix and a suffix of half its length.
 */
export function credentialCoverage(apiKey: string): Array<CoverageInput<CoveredCredential>> {
  const covered = (credential: InvalidCredential, operations: CoveredCredential['operations']) => covers(credentialWords(credential), { credential: printable(credential), operations });
  const examples = exampleCredentials(apiKey, '0123456789abcdef01234567').filter((credential) => !credential.unavailable).map((credential) => covered(credential, 'create'));
  const beyond = CREDENTIAL_MUTATIONS.flatMap((mutation) => (mutation.coverage?.(apiKey) ?? []).map((parameters) => covered(mutation.make(apiKey, parameters), mutation.coveredOn ?? 'both')));
  return [...examples, ...beyond].filter(({ value }) => !isValid(value.credential.header, apiKey));
}
