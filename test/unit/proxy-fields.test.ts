/**
 * What the proxy forwards of a message's fields (src/traffic/proxy.ts, RFC 9110 §7.6.1):
 * the end-to-end ones, in order; never the hop-by-hop list, nor a field that `Connection`
 * names, each beside its near miss.
 */
import { describe, expect, test } from 'vitest';
import { forwardedPairs } from '../../src/traffic/proxy.js';

const names = (raw: string[]) => forwardedPairs(raw).filter((_, i) => i % 2 === 0);

describe('forwardedPairs', () => {
  test.each(['Connection', 'Keep-Alive', 'Proxy-Connection', 'Proxy-Authorization', 'Proxy-Authenticate', 'TE', 'Trailer', 'Transfer-Encoding', 'Upgrade'])('%s, a hop-by-hop field, stays behind', (field) => {
    expect(names([field, 'x', 'X-Kept', 'y'])).toEqual(['X-Kept']);
  });

  test('every field Connection names stays behind, in any case, with spaces around, from any Connection line', () => {
    const raw = ['Connection', 'keep-alive, X-Secret ,x-other', 'X-Secret', 's', 'X-OTHER', 'o', 'connection', 'X-Third', 'X-Third', 't', 'X-Kept', 'k'];
    expect(forwardedPairs(raw)).toEqual(['X-Kept', 'k']);
  });

  test('near misses: a field whose name only starts like a named one, or a name in another field’s value, is forwarded', () => {
    const raw = ['Connection', 'X-Secret', 'X-Secret-2', 'a', 'X-Note', 'X-Secret', 'Authorization', 'Bearer t'];
    expect(forwardedPairs(raw)).toEqual(['X-Secret-2', 'a', 'X-Note', 'X-Secret', 'Authorization', 'Bearer t']);
  });

  test('an empty option names nothing: every end-to-end field goes on', () => {
    expect(forwardedPairs(['Connection', ' , ', 'X-A', '1', 'Content-Type', 'application/json'])).toEqual(['X-A', '1', 'Content-Type', 'application/json']);
  });
});
