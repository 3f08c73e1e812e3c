/**
 * Every file a writer produces parses, whatever the server sent and whatever the key is
 * (issue 22, section 2): random text, echoes of the key (whole, escaped, cut, inside a
 * Bearer credential) in bodies, headers and messages, rendered in every format.
 */
import fc from 'fast-check';
import { parse } from 'parse5';
import { expect, test } from 'vitest';
import { withDefaults, type RunSettings } from '../../src/config/settings.js';
import type { CheckResult } from '../../src/report/model.js';
import { buildReport } from '../../src/report/build.js';
import { renderReport } from '../../src/report/write.js';
import { KEY_PLACEHOLDER, Redactor } from '../../src/secrets/redactor.js';
import { answered } from '../support/exchanges.js';
import { xmlErrors } from '../support/xml.js';

/** A key: short or long, of token characters or of the characters formats escape. */
const key = fc.oneof(
  fc.constantFrom('name', 'test', 'true', '1234', '"', '<', '\\', '${x}', '&amp;', ']]>'),
  fc.string({ unit: fc.constantFrom(...'abcXYZ019-_.~+/"<>&\\\'${}'), minLength: 1, maxLength: 40 }),
);

/** Server text holding the key in the ways servers echo it. */
const echo = (apiKey: string) =>
  fc.oneof(
    fc.string({ unit: 'binary', maxLength: 40 }),
    fc.constant(apiKey),
    fc.constant(`Bearer ${apiKey}`),
    fc.constant(JSON.stringify({ message: `refused Bearer ${apiKey}`, token: apiKey })),
    fc.constant(encodeURIComponent(apiKey)),
    fc.constant(apiKey.slice(0, Math.ceil(apiKey.length / 2))),
    fc.tuple(fc.string({ unit: 'binary', maxLength: 10 }), fc.string({ unit: 'binary', maxLength: 10 })).map(([a, b]) => `${a}${apiKey}${b}`),
  );

const settings: RunSettings = { ...withDefaults({}), baseUrl: 'http://127.0.0.1:9/v1', apiKey: 'k', targetKind: 'external', seed: 1, runId: 'abc', userAgent: 'x', profile: 'full', profileSource: 'default' };

test('every format parses and no whole Bearer credential survives, for any key and any echo (property)', async () => {
  const junitFiles: Array<{ fileName: string; contents: string }> = [];
  const samples = fc.sample(
    key.chain((apiKey) => fc.tuple(fc.constant(apiKey), fc.array(echo(apiKey), { minLength: 4, maxLength: 4 }))),
    { seed: 20261124, numRuns: 60 },
  );
  for (const [index, [apiKey, [body, header, message, requestBody]]] of samples.entries()) {
    const exchange = answered(401, body!, { headers: { 'www-authenticate': header! }, requestBody: requestBody!, checkId: 'auth-check' });
    exchange.request.headers.authorization = 'Bearer ${PETSTORE_API_KEY}';
    const check: CheckResult = {
      id: 'auth-check', title: 'a check', clause: '5/R2', level: 'must', requirements: [], status: 'failed', durationMs: 1, requests: 1,
      failure: { message: message!, expected: 'status 401', found: header!, request: exchange.request, response: exchange.response! },
      property: { seed: 1, numRuns: 1, numShrinks: 0, counterexample: message! },
      observations: [body!],
    };
    const report = buildReport({ settings: { ...settings, apiKey }, startedAt: new Date(0), durationMs: 1, checks: [check], exchanges: [exchange], created: [{ id: '1', name: message!, checkId: 'auth-check' }], runErrors: [] });
    const redactor = new Redactor().add(apiKey, KEY_PLACEHOLDER);
    const files = Object.fromEntries(await Promise.all((['json', 'har', 'junit', 'html', 'md'] as const).map(async (format) => [format, await renderReport(report, [exchange], format, redactor)])));
    const parsed = JSON.parse(files.json!);
    expect(parsed.checks[0].id).toBe('auth-check');
    const strings: string[] = [];
    JSON.parse(files.har!, (_field, value) => (typeof value === 'string' && strings.push(value), value));
    JSON.parse(files.json!, (_field, value) => (typeof value === 'string' && strings.push(value), value));
    expect(strings.filter((value) => value === `Bearer ${apiKey}` || (apiKey.length >= 16 && value.includes(apiKey)))).toEqual([]);
    const errors: string[] = [];
    parse(files.html!, { onParseError: (error) => void errors.push(error.code) });
    expect(errors, `html for key ${JSON.stringify(apiKey)}`).toEqual([]);
    expect(files.junit).toContain('name="auth-check (5/R2)"');
    junitFiles.push({ fileName: `junit-${index}.xml`, contents: files.junit! });
  }
  // One xmllint run for all of them: each file must be well-formed XML.
  expect(await xmlErrors(junitFiles)).toEqual([]);
});

test('a request URL that carries the key in its query is redacted in every format', async () => {
  const apiKey = 'url-key-0123456789abcdefXYZ';
  const exchange = answered(200, '[]', { checkId: 'auth-check' });
  exchange.request.url = `http://127.0.0.1:9/v1/categories?api_key=${apiKey}&x=1`;
  const check: CheckResult = {
    id: 'auth-check', title: 'a check', clause: '5/R1', level: 'must', requirements: [], status: 'failed', durationMs: 1, requests: 1,
    failure: { message: 'the key in the query was accepted', request: exchange.request, response: exchange.response! },
  };
  const report = buildReport({ settings: { ...settings, apiKey }, startedAt: new Date(0), durationMs: 1, checks: [check], exchanges: [exchange], created: [], runErrors: [] });
  const redactor = new Redactor().add(apiKey, KEY_PLACEHOLDER);
  for (const format of ['json', 'har', 'junit', 'html', 'md'] as const) {
    const file = await renderReport(report, [exchange], format, redactor);
    expect(file, format).not.toContain(apiKey);
    // summary.md names checks, not requests: the others show the URL, its key replaced.
    if (format !== 'md') expect(file, format).toContain('api_key=');
  }
});
