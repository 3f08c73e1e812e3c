/**
 * How a body framed with chunked transfer coding (RFC 9112 §7.1) is cut into chunks: where
 * a streaming client's writes may fall, the first cut inside the first multi-byte
 * character (a reader that decodes chunk by chunk damages it), the next halfway through
 * the rest. The client sends these pieces, the record keeps their sizes, and `replay`
 * sends the same pieces again; the words name the cuts for the evidence.
 */
import { Readable } from 'node:stream';

/** The byte length of each chunk `text` is sent in (each 1 or more; they add up to its UTF-8 length). */
export function chunkSizes(text: string): number[] {
  const bytes = Buffer.from(text);
  const wide = bytes.findIndex((byte) => byte >= 0x80);
  const cuts = [...new Set([wide >= 0 ? wide + 1 : 0, Math.ceil(bytes.length / 2)])].filter((cut) => cut > 0 && cut < bytes.length).sort((a, b) => a - b);
  return [...cuts, bytes.length].map((cut, i) => cut - ([0, ...cuts][i] ?? 0));
}

/**
 * A body as a stream of the given pieces, which undici sends with chunked transfer coding,
 * one chunk per piece.
 * @param sizes byte lengths of the pieces (default {@link chunkSizes}); past the body's end, nothing.
 */
export function inChunks(text: string, sizes: readonly number[] = chunkSizes(text)): Readable {
  const bytes = Buffer.from(text);
  let from = 0;
  const pieces = sizes.map((size) => bytes.subarray(from, (from += size)));
  return Readable.from(pieces.filter((piece) => piece.length > 0));
}

/**
 * The framing in words, as the evidence names it: `sent in 3 chunks (5, 12 and 30 bytes),
 * split inside U+00E9 (after byte 1 of 2)`; a cut between characters is not named.
 */
export function framingWords(text: string, sizes: readonly number[]): string {
  const bytes = Buffer.from(text);
  const inside: string[] = [];
  let cut = 0;
  for (const size of sizes.slice(0, -1)) {
    cut += size;
    let start = cut;
    // Back to the first byte of the character the cut falls in (continuation bytes are 10xxxxxx).
    while (start > 0 && (bytes[start]! & 0xc0) === 0x80) start--;
    if (start === cut) continue;
    const char = bytes.subarray(start, start + utf8Length(bytes[start]!)).toString();
    const code = char.codePointAt(0)!.toString(16).toUpperCase().padStart(4, '0');
    inside.push(`U+${code} (after byte ${cut - start} of ${Buffer.byteLength(char)})`);
  }
  const listed = sizes.length === 1 ? `${sizes[0]} bytes` : `${sizes.slice(0, -1).join(', ')} and ${sizes.at(-1)} bytes`;
  return `sent in ${sizes.length} chunk${sizes.length === 1 ? '' : 's'} (${listed})${inside.length > 0 ? `, split inside ${inside.join(', ')}` : ''}`;
}

/** Bytes of the UTF-8 sequence a lead byte starts (1 for a stray byte). */
function utf8Length(lead: number): number {
  return lead >= 0xf0 ? 4 : lead >= 0xe0 ? 3 : lead >= 0xc0 ? 2 : 1;
}
