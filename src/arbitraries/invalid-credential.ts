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
  return fc.oneof(...kinds).filter((credential) => !isValid(credential.header, apiKey));
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
  /** `create`: the example checks already send it on both operations (create-401-*, list-401-*). */
  operations: 'both' | 'create';
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
  const beyond = CREDENTIAL_MUTATIONS.flatMap((mutation) => (mutation.coverage?.(apiKey) ?? []).map((parameters) => covered(mutation.make(apiKey, parameters), 'both')));
  return [...examples, ...beyond].filter(({ value }) => !isValid(value.credential.header, apiKey));
}
