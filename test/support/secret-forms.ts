/**
 * The encodings a server or a client applies to a credential it echoes, and a search for
 * any run of 8 characters of a secret in any of them: what issue 46 holds every written
 * file and every console line to.
 */
import fc from 'fast-check';

/** Characters of a token68 credential (RFC 9110 §11.2), the ones encodings treat apart included. */
const TOKEN68 = 'ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789-._~+/';

/** Visible ASCII that JSON or HTML escapes (`"`, `\\`, `<`, `>`, `&`, `'`): a field value may carry each (RFC 9110 §5.5), and a key may hold them (issue 59). */
export const ESCAPED = '"\\<>&\'';

/** A secret as keys are: 16 to 48 characters of token68, or of token68 and the characters JSON and HTML escape. */
export const secretArbitrary = fc.oneof(
  fc.string({ unit: fc.constantFrom(...TOKEN68), minLength: 16, maxLength: 48 }),
  fc.string({ unit: fc.oneof({ weight: 3, arbitrary: fc.constantFrom(...TOKEN68) }, { weight: 1, arbitrary: fc.constantFrom(...ESCAPED) }), minLength: 16, maxLength: 48 }),
);

/** A secret and what of it an echo keeps: `drop` characters off its start and `cut` off its end, 8 at least left. */
export const echoArbitrary = secretArbitrary.chain((secret) =>
  fc.nat({ max: secret.length - 8 }).chain((drop) => fc.nat({ max: secret.length - 8 - drop }).map((cut) => ({ secret, drop, cut }))),
);

const percentOnce = (text: string) => [...Buffer.from(text)].map((byte) => `%${byte.toString(16).toUpperCase().padStart(2, '0')}`).join('');
const base64 = (text: string, align: number) => Buffer.concat([Buffer.alloc(align, 0x7c), Buffer.from(text)]).toString('base64');

/** Each encoding by name: how a server writes `text` in it. */
export const ENCODINGS = {
  'as written': (text: string) => text,
  'base64, aligned at 0': (text: string) => base64(text, 0),
  'base64, after 1 byte': (text: string) => base64(text, 1),
  'base64, after 2 bytes (a Basic user:KEY)': (text: string) => base64(text, 2),
  base64url: (text: string) => base64(text, 1).replaceAll('+', '-').replaceAll('/', '_').replace(/=+$/, ''),
  'percent-encoded once': percentOnce,
  'percent-encoded twice': (text: string) => encodeURIComponent(percentOnce(text)),
  'hex, lower case': (text: string) => Buffer.from(text).toString('hex'),
  'hex, upper case': (text: string) => Buffer.from(text).toString('hex').toUpperCase(),
  'JSON \\u escapes': (text: string) => [...text].map((c) => `\\u${c.charCodeAt(0).toString(16).padStart(4, '0')}`).join(''),
  'a Basic credential, KEY as user name': (text: string) => `Basic ${Buffer.from(`${text}:`).toString('base64')}`,
  'a cookie, percent-encoded': (text: string) => `session=${encodeURIComponent(text)}`,
} as const;

/** The base64 characters that hold only `text`'s bytes when it starts `align` bytes into a value, in both alphabets. */
function base64Cores(text: string): string[] {
  return [0, 1, 2].flatMap((align) => {
    const core = base64(text, align).slice(Math.ceil((8 * align) / 6), Math.floor((8 * (align + Buffer.byteLength(text))) / 6));
    return [core, core.replaceAll('+', '-').replaceAll('/', '_')];
  });
}

/**
 * Every run of 8 characters of `secret` found in `text` in any encoding above, each as
 * `<encoding>: <form>`; empty when none is. Letters' case is ignored where an encoding
 * ignores it (as written, hex, percent, `\u`); base64 is matched exactly.
 */
/** `text` as it stands inside a JSON string. */
const jsonEscaped = (text: string) => JSON.stringify(text).slice(1, -1);
/** `text` as HTML escapes it in text and attributes. */
const htmlEscaped = (text: string) => text.replace(/&/g, '&amp;').replace(/</g, '&lt;').replace(/>/g, '&gt;').replace(/"/g, '&quot;').replace(/'/g, '&#39;');

export function piecesIn(secret: string, text: string): string[] {
  const folded = text.toLowerCase();
  const found: string[] = [];
  for (let start = 0; start + 8 <= secret.length; start++) {
    const piece = secret.slice(start, start + 8);
    const caseless = [piece, percentOnce(piece), encodeURIComponent(percentOnce(piece)), Buffer.from(piece).toString('hex'), ENCODINGS['JSON \\u escapes'](piece), jsonEscaped(piece), htmlEscaped(piece)];
    for (const form of caseless) if (folded.includes(form.toLowerCase())) found.push(`caseless: ${form}`);
    for (const form of base64Cores(piece)) if (text.includes(form)) found.push(`base64: ${form}`);
  }
  return found;
}
