import fc from 'fast-check';
import type { Credential } from '../http/credential.js';
import { KEY_PLACEHOLDER, KEY_VARIABLE, type Redactor } from '../secrets/redactor.js';

/** Characters a bearer token may hold (token68, RFC 9110 §11.2). */
const TOKEN68 = [...'ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789-._~+/'];

/**
 * Credentials that must be refused with 401 (spec 5/R2), generated from the valid key:
 * a character added, removed or changed; a letter's case changed; a proper prefix or
 * suffix; other schemes; the key without a scheme; an empty token; no header. Every one
 * is invalid on the wire: no whitespace is added (HTTP strips it around field values,
 * RFC 9110 §5.5) and no mutation gives back the key itself.
 *
 * The tokens are secrets (most of the key): each is registered with `redactor`, and a
 * credential prints (in counterexamples too) only as its description.
 */
export function invalidCredential(apiKey: string, redactor: Redactor): fc.Arbitrary<Credential> {
  const length = apiKey.length;
  // Shown as bash expansions of the key variable, so a reproduction replays it exactly.
  const bearer = (name: string, token: string, what: string, shown: string): Credential => {
    redactor.add(token, shown);
    return described({ name, description: `the key ${what}`, header: `Bearer ${token}`, shown: `Bearer ${shown}` });
  };
  const K = KEY_VARIABLE;
  const position = (max: number) => fc.integer({ min: 0, max });
  const letters = [...apiKey].flatMap((c, i) => (c.toLowerCase() !== c.toUpperCase() ? [i] : []));

  const mutations: Array<fc.Arbitrary<Credential>> = [
    fc.tuple(position(length), fc.constantFrom(...TOKEN68)).map(([i, c]) =>
      bearer('char-added', apiKey.slice(0, i) + c + apiKey.slice(i), `with ${JSON.stringify(c)} inserted at ${i}`, `\${${K}:0:${i}}${c}\${${K}:${i}}`),
    ),
    fc.constant(described({ name: 'missing', description: 'no Authorization header' })),
    fc.constant(described({ name: 'empty-token', description: 'an empty bearer token', header: 'Bearer ', shown: 'Bearer ' })),
    fc.constantFrom('Basic', 'Token', 'Digest', 'ApiKey', 'Key').map((scheme) => {
      return described({ name: 'other-scheme', description: `the key under ${scheme}`, header: `${scheme} ${apiKey}`, shown: `${scheme} ${KEY_PLACEHOLDER}` });
    }),
    fc.constant(described({ name: 'no-scheme', description: 'the key without a scheme', header: apiKey, shown: KEY_PLACEHOLDER })),
  ];
  if (length > 0) {
    mutations.push(
      position(length - 1).map((i) =>
        bearer('char-removed', apiKey.slice(0, i) + apiKey.slice(i + 1), `without character ${i}`, `\${${K}:0:${i}}\${${K}:${i + 1}}`),
      ),
      fc.tuple(position(length - 1), fc.constantFrom(...TOKEN68)).filter(([i, c]) => apiKey[i] !== c).map(([i, c]) =>
        bearer('char-changed', apiKey.slice(0, i) + c + apiKey.slice(i + 1), `with character ${i} changed to ${JSON.stringify(c)}`, `\${${K}:0:${i}}${c}\${${K}:${i + 1}}`),
      ),
      position(length - 1).map((n) => bearer('prefix', apiKey.slice(0, n), `cut to its first ${n} characters`, `\${${K}:0:${n}}`)),
      fc.integer({ min: 1, max: length - 1 }).map((n) => bearer('suffix', apiKey.slice(length - n), `cut to its last ${n} characters`, `\${${K}: -${n}}`)),
    );
  }
  if (letters.length > 0) {
    mutations.push(
      fc.constantFrom(...letters).map((i) => {
        const c = apiKey[i]!;
        const swapped = c === c.toUpperCase() ? c.toLowerCase() : c.toUpperCase();
        const flipped = `$(printf %s "\${${K}:${i}:1}" | tr a-zA-Z A-Za-z)`;
        return bearer('case-changed', apiKey.slice(0, i) + swapped + apiKey.slice(i + 1), `with the case of character ${i} changed`, `\${${K}:0:${i}}${flipped}\${${K}:${i + 1}}`);
      }),
    );
  }
  // Valid means the bearer scheme (in any case, RFC 9110 §11.1) followed by the key.
  const isValid = (header: string | undefined) => header !== undefined && /^bearer +/i.test(header) && header.replace(/^bearer +/i, '') === apiKey;
  return fc.oneof(...mutations).filter((credential) => !isValid(credential.header));
}

/** The credential, printing as its description and shown header (never the raw header). */
function described(credential: Credential): Credential {
  return Object.assign(credential, { [fc.toStringMethod]: () => `${credential.description} (${credential.shown ?? 'no header'})` });
}
