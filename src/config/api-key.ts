import { UsageError } from '../core/errors.js';

/**
 * Refuses a value that cannot be sent in a header field as it is: a control character (a
 * newline from a file or a copied secret, NUL, DEL), a character outside ASCII (RFC 9110
 * §5.5: field values are visible ASCII; a token68 credential is narrower still), or a
 * space at either end (a field value has none: the server would see it trimmed). The
 * message names the character's code point and position, never the value.
 * @param what the value, e.g. `the API key`.
 * @param source where it came from, e.g. `the environment variable PETSTORE_API_KEY`.
 * @throws UsageError naming the first such character.
 */
export function assertSendable(value: string, what: string, source: string): void {
  for (const [i, character] of [...value].entries()) {
    const code = character.codePointAt(0)!;
    const kind = code < 0x20 || code === 0x7f ? 'a control character' : code > 0x7e ? 'a character outside ASCII' : undefined;
    if (kind) {
      const point = `U+${code.toString(16).toUpperCase().padStart(4, '0')}`;
      throw new UsageError(`${what} (from ${source}) holds a character that cannot be sent in an HTTP header: ${kind} (${point}) at position ${i + 1}; check how it was stored`);
    }
  }
  // A field value cannot carry surrounding whitespace (RFC 9110 §5.5): the server would read another value than the one judged.
  const end = value.startsWith(' ') ? 'begins' : value.endsWith(' ') ? 'ends' : undefined;
  if (end) throw new UsageError(`${what} (from ${source}) ${end} with a space, which an HTTP header field cannot carry (RFC 9110 §5.5): the server would see another value; remove it`);
}

/** {@link assertSendable} for the API key. */
export function assertSendableKey(key: string, source: string): void {
  assertSendable(key, 'the API key', source);
}
