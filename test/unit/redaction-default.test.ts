/**
 * Secrets redacted by default (issue 34): every string a writer emits passes through the
 * redactor, except the fields declared safe (report/redact.ts SAFE_FIELDS). One property
 * per carrier: a random secret travels through it, and no output (report.json walked
 * string by string, every format, the console's summary) holds it.
 */
import { readFileSync } from 'node:fs';
import fc from 'fast-check';
import { describe, expect, test } from 'vitest';
import { withDefaults, type RunSettings } from '../../src/config/settings.js';
import type { Exchange } from '../../src/core/exchange.js';
import { buildReport } from '../../src/report/build.js';
import { ConsoleFormat } from '../../src/report/console.js';
import type { CheckResult, Report } from '../../src/report/model.js';
import { SAFE_FIELDS, redactExchange, redactReport } from '../../src/report/redact.js';
import { renderReport } from '../../src/report/write.js';
import { Redactor } from '../../src/secrets/redactor.js';
import { registerCaptureSecrets } from '../../src/traffic/credentials.js';
import { answered } from '../support/exchanges.js';

const settings: RunSettings = { ...withDefaults({}), baseUrl: 'http://127.0.0.1:9/v1', apiKey: 'k', targetKind: 'traffic', seed: 1, runId: 'abc', userAgent: 'x', profile: 'full', profileSource: 'default' };

/** A secret as credentials look: 16 to 40 characters of a token's alphabet. */
const secret = fc.string({ unit: fc.constantFrom(...'abcdefghijkLMNOPQRSTUVWXYZ0123456789-_.'), minLength: 16, maxLength: 40 }).filter((s) => /[a-z]/i.test(s));

/** Where a secret travels: it changes the failing exchange, or the report around it. */
type Carrier = (secret: string, exchange: Exchange, report: Report) => void;

const CARRIERS: Record<string, Carrier> = {
  'the Authorization header': (s, e) => void (e.request.headers.authorization = `Bearer ${s}`),
  'the Proxy-Authorization header': (s, e) => void (e.request.headers['proxy-authorization'] = `Basic ${s}`),
  'a Cookie header': (s, e) => void (e.request.headers.cookie = `session=${s}; theme=dark`),
  'a Set-Cookie header': (s, e) => void (e.response!.headers['set-cookie'] = `session=${s}; Path=/; HttpOnly`),
  'a URL query': (s, e) => void (e.request.url = `${e.request.url}?api_key=${s}&page=2`),
  'a form body': (s, e) => void Object.assign(e.request, { body: `name=Cats&access_token=${s}`, headers: { ...e.request.headers, 'content-type': 'application/x-www-form-urlencoded' } }),
  'a JSON body': (s, e) => void Object.assign(e.response!, { body: JSON.stringify({ code: 'x', message: 'refused', token: s, status: 200 }) }),
  'a header that names a key (X-API-Key)': (s, e) => void (e.request.headers['x-api-key'] = s),
  'a notice': (s, _e, r) => void (r.notices = [`the capture /tmp/${s}.har ends before its JSON does`]),
  'a finding': (s, _e, r) => void r.findings.push({ id: 'F9', summary: `GET /v1/categories?token=${s} → status 200`, checks: ['c'], found: `status 200 ${s}` }),
  'a traffic summary': (s, _e, r) =>
    void (r.traffic = {
      files: [`/captures/${s}.har`],
      entries: 2,
      judged: 1,
      other: 0,
      missing: { 'response body': 1 },
      dropped: [{ exchange: 1, body: 'response body', reason: `not kept: ${s}` }],
      invalid: { entries: 1, listed: [{ file: `/captures/${s}.har`, entry: 2, reason: `request.url is not a string (found ${s})` }] },
      truncated: [{ file: `/captures/${s}.har`, entries: 1, reason: 'ends before its JSON does' }],
    }),
  'the verdict’s reason': (s, _e, r) => void (r.verdictReason = `the target is unreachable: ECONNREFUSED ${s}`),
};

/** A nonconformant report whose failure carries `exchange`, with `carrier` applied. */
function reportWith(secretValue: string, carrier: Carrier): { report: Report; exchange: Exchange } {
  const exchange = answered(200, '[]', { checkId: 'c' });
  const report = buildReport({ settings, startedAt: new Date(0), durationMs: 1, checks: [], exchanges: [exchange], created: [], runErrors: [] });
  carrier(secretValue, exchange, report);
  const check: CheckResult = { id: 'c', title: 'a check', clause: '5/R1', level: 'must', requirements: [], status: 'failed', durationMs: 1, requests: 1, failure: { message: 'failed', request: exchange.request, response: exchange.response! } };
  report.checks = [check];
  return { report, exchange };
}

/** Every string of a JSON value. */
function strings(value: unknown): string[] {
  if (typeof value === 'string') return [value];
  if (Array.isArray(value)) return value.flatMap(strings);
  if (value !== null && typeof value === 'object') return Object.values(value).flatMap(strings);
  return [];
}

describe('a secret in every carrier is in no output (property per carrier)', () => {
  test.each(Object.entries(CARRIERS))('%s', async (_carrier, carrier) => {
    await fc.assert(
      fc.asyncProperty(secret, async (value) => {
        const { report, exchange } = reportWith(value, carrier);
        // The run's redactor: the key, and the capture's secrets as the judge registers them from the exchange.
        const redactor = new Redactor().add(value, '${PETSTORE_API_KEY}');
        registerCaptureSecrets({ request: { headers: Object.entries(exchange.request.headers).map(([name, v]) => ({ name, value: v })), url: exchange.request.url } }, redactor, [], new Map());
        const outputs = [
          ...strings(redactReport(report, redactor)),
          ...(await Promise.all((['json', 'har', 'junit', 'html', 'md'] as const).map((format) => renderReport(report, [exchange], format, redactor)))),
          new ConsoleFormat(false, false).summary(redactReport(report, redactor)),
        ];
        for (const output of outputs) expect(output).not.toContain(value);
      }),
      { numRuns: 15, seed: 20261125 },
    );
  });
});

describe('what stays: the fields the tool writes itself', () => {
  test('a key spelled like a verdict, a level or a status leaves them as they are', () => {
    const { report } = reportWith('nonconformant-must-failed', CARRIERS['a notice']!);
    for (const word of ['nonconformant', 'must', 'failed', 'c']) {
      const redacted = redactReport(report, new Redactor().add(word, '${PETSTORE_API_KEY}'));
      expect([redacted.verdict, redacted.checks[0]!.level, redacted.checks[0]!.status, redacted.checks[0]!.id]).toEqual([report.verdict, 'must', 'failed', 'c']);
    }
  });

  test('every enumerated string of report.schema.json is a safe field (a redacted enum would break the schema)', () => {
    const schema = JSON.parse(readFileSync(new URL('../../schemas/report.schema.json', import.meta.url), 'utf8'));
    const enumerated: string[] = [];
    const walk = (node: unknown, path: string, defs: Record<string, unknown>): void => {
      if (node === null || typeof node !== 'object') return;
      const n = node as Record<string, unknown>;
      if (typeof n.$ref === 'string') return walk(defs[n.$ref.split('/').pop()!], path, defs);
      if ((Array.isArray(n.enum) || n.const !== undefined) && (n.type === 'string' || typeof (n.enum as unknown[] | undefined)?.[0] === 'string' || typeof n.const === 'string')) enumerated.push(path);
      for (const [name, child] of Object.entries((n.properties as Record<string, unknown>) ?? {})) walk(child, path === '' ? name : `${path}.${name}`, defs);
      if (n.items) walk(n.items, `${path}.*`, defs);
      for (const key of ['anyOf', 'oneOf', 'allOf'] as const) for (const option of (n[key] as unknown[]) ?? []) walk(option, path, defs);
    };
    walk(schema, '', schema.$defs ?? schema.definitions ?? {});
    expect(enumerated.length).toBeGreaterThan(3);
    expect(enumerated.filter((path) => !SAFE_FIELDS.has(path))).toEqual([]);
  });
});

describe('bodies keep their syntax, lines their count', () => {
  test('a JSON request body holding a secret stays JSON when the placeholder holds quotes (a shown form such as $(node -p "…"))', () => {
    const exchange = answered(201, { id: 1, name: 'x' }, { requestBody: { name: 'Cats', token: 'body-secret-0123456789abcdef' } });
    const redactor = new Redactor().add('body-secret-0123456789abcdef', '"$(node -p "encodeURIComponent(process.env.K)")"');
    const redacted = redactExchange(exchange, redactor);
    expect(JSON.parse(redacted.request.body!).token).not.toContain('body-secret');
    expect(JSON.parse(redacted.request.body!).name).toBe('Cats');
  });

  test('the console lists ten bodies not kept, then says how many more: none past ten, no line; one past, one line', () => {
    const withMissing = (count: number) => {
      const { report } = reportWith('x'.repeat(16), () => {});
      report.traffic = { files: [], entries: count, judged: count, other: 0, missing: { 'response body': count }, dropped: Array.from({ length: count }, (_, i) => ({ exchange: i + 1, body: 'response body', reason: 'not kept in the capture' })) };
      return new ConsoleFormat(false, false).summary(report);
    };
    expect(withMissing(10)).not.toMatch(/more bodies not kept/);
    expect(withMissing(11)).toMatch(/… 1 more body not kept/);
  });
});

test('a short key\'s pieces go from what the server sent (a response body, a response header), not from the tool\'s own words; near miss: a piece in the verdict\'s reason stays', () => {
  const key = 'Kx7mN2pL0v';
  const piece = key.slice(0, 8);
  const { report, exchange } = reportWith('unused-secret-value-0000', () => {});
  exchange.response!.body = JSON.stringify({ echoed: piece });
  exchange.response!.headers['x-echo'] = piece;
  report.verdictReason = `a phrase that holds ${piece} by chance`;
  const redacted = redactReport(report, new Redactor().add(key, '${PETSTORE_API_KEY}'));
  const failure = redacted.checks[0]!.failure!;
  expect(failure.response!.body).not.toContain(piece);
  expect(failure.response!.headers['x-echo']).not.toContain(piece);
  expect(redacted.verdictReason).toBe(`a phrase that holds ${piece} by chance`);
});
