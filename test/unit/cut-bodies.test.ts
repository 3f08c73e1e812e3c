/**
 * A recorded body is cut between characters (issue 59): cut inside a character outside
 * the BMP, it ended in a lone surrogate, and exchanges.har was no longer strict JSON (jq
 * refused it). Every position of a 4-byte character relative to the cap, each read back by
 * a strict check of the JSON text.
 */
import { describe, expect, test } from 'vitest';
import { cutBetweenCharacters, RECORDED_BODY_CAP, recordedRequest, withBodyCapped, type Exchange } from '../../src/core/exchange.js';
import { renderHar } from '../../src/report/har.js';
import type { Report } from '../../src/report/model.js';
import { answered } from '../support/exchanges.js';

/** Whether a JSON text holds an escaped lone surrogate, which strict parsers refuse. */
const loneSurrogate = (json: string) => /\\ud[89ab][0-9a-f]{2}(?!\\ud[c-f])|(?<!\\ud[89ab][0-9a-f]{2})\\ud[c-f][0-9a-f]{2}/i.test(json);

describe('cutBetweenCharacters', () => {
  test.each([
    ['a cut after the high half of 𝄞: one fewer', 'ab𝄞c', 3, 'ab'],
    ['near miss: a cut before 𝄞', 'ab𝄞c', 2, 'ab'],
    ['near miss: a cut after the whole of 𝄞', 'ab𝄞c', 4, 'ab𝄞'],
    ['near miss: a cut in text of the BMP', 'abcé', 3, 'abc'],
    ['no cut: the whole text', 'ab𝄞', 10, 'ab𝄞'],
  ])('%s', (_what, text, units, kept) => expect(cutBetweenCharacters(text, units)).toBe(kept));
});

describe('a body of the cap and more, a 4-byte character at every position around the cut, makes strict JSON', () => {
  const G_CLEF = '𝄞';
  test.each([-2, -1, 0, 1])('the character starting %i units from the cap', (offset) => {
    const body = `${'a'.repeat(RECORDED_BODY_CAP + offset)}${G_CLEF}${'b'.repeat(10)}`;
    const response = withBodyCapped(answered(200, body)).response!.body;
    const request = recordedRequest({ method: 'POST', url: 'http://h/v1/categories', headers: {}, body }).body!;
    for (const kept of [response, request]) expect(loneSurrogate(JSON.stringify(kept))).toBe(false);
    // The HAR of it, as written.
    const exchange: Exchange = { ...answered(200, body), request: { method: 'POST', url: 'http://h/v1/categories', headers: {}, body: request } };
    const har = renderHar({ tool: { name: 't', version: '0' } } as Report, [withBodyCapped(exchange)]);
    expect(loneSurrogate(har)).toBe(false);
  });

  test('near miss: the check finds a lone surrogate where one is', () => {
    expect(loneSurrogate(JSON.stringify('a\ud834'))).toBe(true);
    expect(loneSurrogate(JSON.stringify(G_CLEF))).toBe(false);
  });
});
