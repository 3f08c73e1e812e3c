/**
 * Every shown credential and key placement replays exactly what was sent: the shown form,
 * expanded by dash and by bash inside double quotes with the key in the environment (as a
 * report's curl line and `replay` expand it), is byte for byte the header, query or body
 * the client wrote. Properties over keys; one shell per test, a `node -e` per case that
 * shows bytes outside ASCII, hence the slow tier (test/tiers.ts).
 */
import fc from 'fast-check';
import { describe, expect, test } from 'vitest';

describe('shown credentials replay exactly what was sent', () => {
  test.each(['dash', 'bash'])('with the key in the environment, %s prints every kind’s shown form as the header sent (property)', async (shell) => {
    const { CREDENTIAL_MUTATIONS } = await import('../../src/arbitraries/invalid-credential.js');
    const { execFileSync } = await import('node:child_process');
    const key = fc.stringMatching(/^[A-Za-z0-9\-._~+/]{4,40}$/);
    const cases = CREDENTIAL_MUTATIONS.flatMap((mutation) =>
      fc.sample(key.chain((apiKey) => (mutation.parameters(apiKey) ?? fc.constant(undefined)).map((parameters) => ({ apiKey, parameters }))), { seed: 20261124, numRuns: 8 })
        .filter(({ apiKey, parameters }) => parameters !== undefined || mutation.parameters(apiKey) !== undefined)
        .map(({ apiKey, parameters }) => ({ kind: mutation.kind, apiKey, credential: mutation.make(apiKey, parameters) })),
    ).filter(({ credential }) => credential.header !== undefined);
    expect(new Set(cases.map((c) => c.kind)).size).toBeGreaterThanOrEqual(10);
    // As a replay runs it: the shown form inside double quotes, the key exported (the replay exports it; node reads it there)
    // (one shell for every case: case i's key is in K_i).
    const script = cases.map(({ credential }, i) => `export PETSTORE_API_KEY="$K_${i}"; printf '%s\\0' "${credential.shown}"`).join('\n');
    const keys = Object.fromEntries(cases.map(({ apiKey }, i) => [`K_${i}`, apiKey]));
    // Read as bytes, one character each: a header goes on the wire so (undici writes each character as a Latin-1 byte), the UTF-8 of a non-ASCII token included.
    const printed = execFileSync(shell, ['-c', script], { env: { PATH: process.env.PATH, ...keys }, encoding: 'latin1' }).split('\0').slice(0, -1);
    expect(printed).toHaveLength(cases.length);
    for (const [i, { kind, apiKey, credential }] of cases.entries()) {
      expect(printed[i], `${kind} for key ${apiKey}: shown ${credential.shown}`).toBe(credential.header);
    }
  });
});

describe('the key placed outside Authorization replays exactly what was sent', () => {
  test.each(['dash', 'bash'])('every placement’s shown query, header and body, expanded by %s with the key in the environment, is what was sent (property over keys)', async (shell) => {
    const { keyPlacements } = await import('../../src/http/key-placement.js');
    const { execFileSync } = await import('node:child_process');
    // Keys with characters a URL encodes (+ / =) and without.
    const keys = fc.sample(fc.stringMatching(/^[A-Za-z0-9\-._~+/=]{8,40}$/), { seed: 20261125, numRuns: 6 });
    const cases = keys.flatMap((apiKey) =>
      keyPlacements(apiKey).flatMap(({ placed }) => [...(placed.query ? [placed.query] : []), ...Object.values(placed.headers), ...(placed.body ? [placed.body] : [])].map((part) => ({ apiKey, ...part }))),
    );
    expect(cases.length).toBeGreaterThanOrEqual(keys.length * 9);
    const script = cases.map(({ shown }, i) => `export PETSTORE_API_KEY="$K_${i}"; printf '%s\\0' "${shown}"`).join('\n');
    const env = Object.fromEntries(cases.map(({ apiKey }, i) => [`K_${i}`, apiKey]));
    const printed = execFileSync(shell, ['-c', script], { env: { PATH: process.env.PATH, ...env }, encoding: 'utf8' }).split('\0').slice(0, -1);
    for (const [i, { apiKey, sent, shown }] of cases.entries()) expect(printed[i], `key ${apiKey}: shown ${shown}`).toBe(sent);
  });
});
