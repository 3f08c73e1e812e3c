import type { Credential } from '../http/credential.js';
import { KEY_PLACEHOLDER, keyExpression, type Redactor } from '../secrets/redactor.js';
import { derivedHex } from './seed.js';

/**
 * Credentials that must be refused with 401 (spec 4.2/R3, 5/R2): a missing header,
 * an unknown key, an empty token, another scheme, the key without a scheme, and keys one
 * edit away from the valid one. Every variant is invalid on the wire: HTTP strips
 * whitespace around field values (RFC 9110 §5.5), so no variant differs only by it.
 *
 * Variants derived from the key are secrets too; they are registered with `redactor`
 * and shown as bash expressions of the key variable, so a reproduction stays runnable.
 * A variant that cannot be formed from this key (e.g. case swap of a key without
 * letters) is returned with `header` undefined and `unavailable` set.
 */
export function invalidCredentials(apiKey: string, redactor: Redactor, seed: number): InvalidCredential[] {
  const K = KEY_PLACEHOLDER;
  const chopped = apiKey.slice(0, -1);
  const last = apiKey.slice(-1);
  // Differs from the last character in any letter case, so this variant does not also
  // test case-insensitive comparison (key-case-swapped does that).
  const replacement = ['x', 'y', '7'].find((c) => c !== last.toLowerCase())!;
  const swapped = swapCase(apiKey);
  const derived = (name: string, description: string, token: string, shownToken: string): InvalidCredential => {
    redactor.add(token, shownToken);
    return { name, description, header: `Bearer ${token}`, shown: `Bearer ${shownToken}` };
  };
  const variants: InvalidCredential[] = [
    { name: 'missing', description: 'no Authorization header' },
    unknownKey(apiKey, seed),
    { name: 'empty-token', description: 'the bearer scheme with an empty token', header: 'Bearer ', shown: 'Bearer ' },
    { name: 'basic-scheme', description: 'the valid key under the Basic scheme', header: `Basic ${apiKey}`, shown: `Basic ${K}` },
    { name: 'no-scheme', description: 'the valid key without a scheme', header: apiKey, shown: K },
    derived('key-char-added', 'the valid key with one character appended', `${apiKey}x`, `${K}x`),
  ];
  if (apiKey.length >= 2) {
    variants.push(
      derived('key-char-removed', 'the valid key without its last character', chopped, keyExpression('%?')),
      derived('key-char-changed', 'the valid key with its last character changed', chopped + replacement, keyExpression('%?') + replacement),
    );
  }
  variants.push(
    swapped === apiKey
      ? { name: 'key-case-swapped', description: 'the valid key with letter case swapped', unavailable: 'the key has no letters' }
      : derived('key-case-swapped', 'the valid key with letter case swapped', swapped, keyExpression('~~')),
  );
  return variants;
}

/** An invalid credential; `unavailable` says why this key admits no such variant. */
export interface InvalidCredential extends Credential {
  unavailable?: string;
}

function unknownKey(apiKey: string, seed: number): InvalidCredential {
  let token = `pcs-invalid-${derivedHex(seed, 'unknown-key', 24)}`;
  if (token === apiKey) token += '0';
  return { name: 'unknown-key', description: 'an unknown key as a bearer token', header: `Bearer ${token}`, shown: `Bearer ${token}` };
}

function swapCase(text: string): string {
  return [...text].map((c) => (c === c.toUpperCase() ? c.toLowerCase() : c.toUpperCase())).join('');
}
