/**
 * The base64 forms of a secret that hold only its own bytes, at each of the three byte
 * alignments it may start at inside a longer encoded value (`user:<key>` in a Basic
 * header), in the standard and the URL-safe alphabet: a secret echoed in base64 is found
 * by these, whatever surrounds it. Forms shorter than 8 characters are left out: they
 * would match ordinary text.
 */
export function base64Forms(secret: string): string[] {
  const bytes = Buffer.from(secret, 'utf8');
  const forms = new Set<string>();
  for (const align of [0, 1, 2]) {
    const encoded = Buffer.concat([Buffer.alloc(align), bytes]).toString('base64');
    // A character holds bits [6i, 6i + 6): only those wholly inside the secret's bytes are its own.
    const start = Math.ceil((8 * align) / 6);
    const end = Math.floor((8 * (align + bytes.length)) / 6);
    const core = encoded.slice(start, end);
    if (core.length < 8) continue;
    forms.add(core);
    forms.add(core.replaceAll('+', '-').replaceAll('/', '_'));
  }
  return [...forms];
}

/**
 * The texts whose every run of 8 characters is a piece of `secret` in an encoding a
 * server applies as bytes: the secret as written, its base64 and base64url cores at each
 * of the three alignments (a run of the secret starting anywhere in an encoded value lies
 * in one of them), and its hex (lower case; pieces are found in any case). Escapes that
 * decode to the secret (percent once or twice, JSON `\u`, HTML) are found in the escaped
 * text's decoded views instead (DecodedView).
 * @returns each text with the placeholder its pieces are shown as.
 */
export function pieceTexts(secret: string, placeholder: string): Array<{ text: string; placeholder: string }> {
  return [
    { text: secret, placeholder },
    ...base64Forms(secret).map((text) => ({ text, placeholder: `[base64 of ${placeholder}]` })),
    { text: Buffer.from(secret, 'utf8').toString('hex'), placeholder: `[hex of ${placeholder}]` },
  ];
}
