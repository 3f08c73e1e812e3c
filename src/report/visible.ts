/**
 * Text a server sent, made safe to show: every control character (C0 but tab and line
 * feed, DEL, C1), every bidirectional control (U+061C, U+200E, U+200F, U+202A–U+202E,
 * U+2066–U+2069: they reorder what a terminal or a browser shows around them, Unicode
 * UAX #9), every noncharacter (U+FDD0–U+FDEF and the last two code points of every plane,
 * Unicode §23.7) and every lone surrogate, written as a `\u` escape. A terminal then receives
 * no escape sequence from a server (no colour, no title or clipboard write, no bell), text
 * reads in the order it was sent, XML stays well-formed and HTML holds no reference that is
 * a parse error.
 */
export function visible(text: string): string {
  return text.replace(UNSAFE, escaped);
}

/** One character as an escape: `\uXXXX`, or `\u{XXXXX}` beyond the BMP. */
export function escaped(character: string): string {
  const code = character.codePointAt(0)!;
  return code > 0xffff ? `\\u{${code.toString(16)}}` : `\\u${code.toString(16).padStart(4, '0')}`;
}

const UNSAFE = new RegExp(
  [
    // eslint-disable-next-line no-control-regex
    '[\\u0000-\\u0008\\u000b-\\u001f\\u007f-\\u009f\\u061c\\u200e\\u200f\\u202a-\\u202e\\u2066-\\u2069]',
    '\\p{Noncharacter_Code_Point}',
    // A surrogate without its pair: the pattern's `u` flag reads a whole pair as one code point.
    '\\p{Cs}',
  ].join('|'),
  'gu',
);
