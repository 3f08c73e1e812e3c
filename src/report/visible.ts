/**
 * Text a server sent, made safe to show: every control character (C0 but tab and line
 * feed, DEL, C1) and every character XML 1.0 forbids (lone surrogates, U+FFFE, U+FFFF)
 * written as a `\u` escape. A terminal then receives no escape sequence from a server (no
 * colour, no title or clipboard write, no bell), and XML stays well-formed.
 */
export function visible(text: string): string {
  return text.replace(UNSAFE, escaped);
}

/** One character as a `\uXXXX` escape. */
export function escaped(character: string): string {
  return `\\u${character.charCodeAt(0).toString(16).padStart(4, '0')}`;
}

// eslint-disable-next-line no-control-regex
const UNSAFE = /[\u0000-\u0008\u000b-\u001f\u007f-\u009f\ufffe\uffff]|[\ud800-\udbff](?![\udc00-\udfff])|(?<![\ud800-\udbff])[\udc00-\udfff]/g;
