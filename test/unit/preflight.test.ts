/**
 * The preflight's diagnosis (src/check/preflight.ts): which answers of the keyed list name
 * the user's own mistake (a key the target refuses, a base URL where the service does not
 * answer), each beside the near miss that is the checks' to judge.
 */
import { createServer } from 'node:net';
import { describe, expect, test } from 'vitest';
import { preflightDiagnosis } from '../../src/check/preflight.js';
import { withDefaults, type RunSettings } from '../../src/config/settings.js';
import { RECORDED_BODY_CAP, TRUNCATION_MARK } from '../../src/core/exchange.js';
import { probe } from '../../src/runner/probe.js';
import { answered, unanswered } from '../support/exchanges.js';
import { startRawServer } from '../support/raw-server.js';

const error = (status: number) => ({ code: 'x', message: 'y', status });
const html = { 'content-type': 'text/html; charset=utf-8' };
const KEY = 'the environment variable PETSTORE_API_KEY';
const URL = 'http://127.0.0.1:9/v1/categories';

describe('preflightDiagnosis', () => {
  test.each([
    ['401 with an Error body', answered(401, error(401)), `the target refuses the key (401 with an Error body): check ${KEY}, and that it is this target's key`],
    ['403 with an Error body', answered(403, error(403)), `the target refuses the key (403 with an Error body): check ${KEY}, its permissions, and any header a gateway in front needs (--header, --header-env)`],
    ['401 with a page', answered(401, '<h1>401</h1>', { headers: html }), `the target refuses the key (401 with a body of text/html; charset=utf-8): check ${KEY}, and that it is this target's key`],
    ['404 with a page', answered(404, '<h1>Not Found</h1>', { headers: html }), `is the base URL right? GET ${URL} answered 404 text/html; charset=utf-8: the base URL ends with the version segment /v1 where the service mounts it`],
    ['404 with an Error body', answered(404, error(404)), `is the base URL right? GET ${URL} answered 404 application/json: the base URL ends with the version segment /v1 where the service mounts it`],
    ['a redirect', answered(301, '', { headers: { location: 'https://api.example/v1/categories' } }), `is the base URL right? GET ${URL} answered 301 to https://api.example/v1/categories application/json: the base URL ends with the version segment /v1 where the service mounts it`],
    ['200 with a web page (another service)', answered(200, '<!doctype html><title>shop</title>', { headers: html }), `is the base URL right? GET ${URL} answered 200 text/html; charset=utf-8: the base URL ends with the version segment /v1 where the service mounts it`],
  ] as const)('%s: not assessable, said why', (_what, keyed, diagnosis) => expect(preflightDiagnosis(keyed, KEY)).toBe(diagnosis));

  test.each([
    ['200 with the list', answered(200, [])],
    ['near miss: 200 with JSON that does not parse, as JSON: the service, broken (the checks judge it)', answered(200, '[{"id":1,')],
    ['near miss: 200 with JSON under text/plain: the service (success-content-type-json judges it)', answered(200, [], { headers: { 'content-type': 'text/plain' } })],
    ['near miss: 400: an answer the checks judge', answered(400, error(400))],
    ['near miss: 402, one past 401', answered(402, error(402))],
    ['near miss: 405', answered(405, error(405))],
    ['near miss: 299, a success with JSON', answered(299, [])],
    ['500: the checks’ finding', answered(500, error(500))],
    ['no answer (a list that hangs): the checks’ to judge', unanswered('TIMEOUT')],
    ['none sent', undefined],
  ] as const)('%s: the run goes on', (_what, keyed) => expect(preflightDiagnosis(keyed, KEY)).toBeUndefined());

  const keyless = (status: number) => answered(status, status === 401 ? error(401) : '<h1>page</h1>', { headers: status === 401 ? {} : html });
  test.each([
    ['404 with a page', answered(404, '<h1>Not Found</h1>', { headers: html })],
    ['a redirect', answered(302, '', { headers: { location: 'https://other.example/categories' } })],
    ['200 with a web page', answered(200, '<html><body>Categories</body></html>', { headers: html })],
  ] as const)('%s where the keyless probe got its 401: the service is there, and the answer is its own (the checks judge it)', (_what, keyed) => {
    expect(preflightDiagnosis(keyed, KEY, keyless(401))).toBeUndefined();
    // Near misses: a probe that got the same page, or a 403, shows no sign of the interface.
    expect(preflightDiagnosis(keyed, KEY, keyless(404))).toMatch(/^is the base URL right\?/);
    expect(preflightDiagnosis(keyed, KEY, keyless(403))).toMatch(/^is the base URL right\?/);
  });

  test('a refused key is said whatever the probe got', () => {
    expect(preflightDiagnosis(answered(401, error(401)), KEY, keyless(401))).toMatch(/^the target refuses the key/);
  });

  test.each([
    ['a trailing slash (Django’s APPEND_SLASH)', '/v1/categories/'],
    ['a trailing slash, as an absolute URL on the same origin', 'http://127.0.0.1:9/v1/categories/'],
    ['the path in other case', '/v1/Categories'],
    ['a doubled slash', '/v1//categories'],
  ] as const)('a redirect to another spelling of the spec’s own path (%s) is the service’s answer: the checks judge it', (_what, location) => {
    expect(preflightDiagnosis(answered(301, '', { headers: { location, ...html } }), KEY)).toBeUndefined();
  });

  test.each([
    ['another origin', 'http://127.0.0.1:10/v1/categories/'],
    ['another base path', '/api/v1/categories/'],
    ['another resource under the base path', '/v1/categories/list'],
    ['the login page', '/login?next=/v1/categories'],
    ['the same path, exactly (a loop)', '/v1/categories'],
  ] as const)('near miss: a redirect to %s asks whether the base URL is right', (_what, location) => {
    expect(preflightDiagnosis(answered(301, '', { headers: { location } }), KEY)).toMatch(/^is the base URL right\? GET \S+ answered 301 to /);
  });

  test('399 is still a redirect, 400 not', () => {
    expect(preflightDiagnosis(answered(399, ''), KEY)).toMatch(/^is the base URL right\?/);
    expect(preflightDiagnosis(answered(300, ''), KEY)).toMatch(/^is the base URL right\?/);
  });
});

describe('probe: the gate every check\'s request waits on (runner/probe.ts)', () => {
  const KEY_VALUE = 'probe-test-key-0123456789';
  const settingsFor = (baseUrl: string) => ({ ...withDefaults({}), baseUrl, apiKey: KEY_VALUE, runId: 'probe-test', seed: 1, userAgent: 't', targetKind: 'external', profile: 'full', profileSource: 'explicit', connections: 2, keySource: KEY }) as RunSettings;

  test('a target no request reaches: closed at once, whichever of the two requests fails first', async () => {
    const closed = createServer();
    await new Promise<void>((resolve) => closed.listen(0, '127.0.0.1', resolve));
    const port = (closed.address() as { port: number }).port;
    await new Promise((resolve) => closed.close(resolve));
    const flight = probe(settingsFor(`http://127.0.0.1:${port}/v1`));
    expect(await flight.open.gate).toBe('the target is unreachable');
    expect((await flight.probe).error?.code).toBe('CONNECTION_REFUSED');
    await flight.done;
  });

  test.each([
    ['the key refused', 401, /^the target refuses the key \(401 with an Error body\)/],
    ['near miss: the key taken', 200, undefined],
  ])('%s: the diagnosis, or open', async (_what, keyedStatus, gate) => {
    const server = await startRawServer((req, res) => {
      const keyed = req.headers.authorization === `Bearer ${KEY_VALUE}`;
      const status = keyed ? keyedStatus : 401;
      res.writeHead(status, { 'content-type': 'application/json' }).end(status === 200 ? '[]' : JSON.stringify({ code: 'unauthorized', message: 'no', status }));
    });
    try {
      const flight = probe(settingsFor(server.baseUrl));
      const opened = await flight.open.gate;
      if (gate) expect(opened).toMatch(gate);
      else expect(opened).toBeUndefined();
      await flight.done;
    } finally {
      await server.close();
    }
  });

  // A JSON list sent as text/plain is no web page, however long; cut to the record's cap, it would no longer parse.
  test.each([
    ['whole', RECORDED_BODY_CAP, undefined],
    ['past the cap, judged whole, kept cut', RECORDED_BODY_CAP + 1, undefined],
    ['near miss: a page past the cap', RECORDED_BODY_CAP + 1, /^is the base URL right\?/],
  ])('a keyed list %s: the diagnosis from the whole body, the record as every record is', async (what, bytes, gate) => {
    const list = `[${'"x",'.repeat(bytes)}`.slice(0, bytes - 2) + '"]';
    const body = gate ? `<html>${list}` : list;
    const server = await startRawServer((req, res) => {
      const keyed = req.headers.authorization === `Bearer ${KEY_VALUE}`;
      res.writeHead(keyed ? 200 : 404, { 'content-type': 'text/plain' }).end(keyed ? body : 'Not Found');
    });
    try {
      const flight = probe(settingsFor(server.baseUrl));
      const opened = await flight.open.gate;
      if (gate) expect(opened).toMatch(gate);
      else expect(opened, what).toBeUndefined();
      const { exchange } = await flight.keyed;
      expect(exchange.response?.bodyBytes).toBe(Buffer.byteLength(body));
      expect(exchange.response?.body).toBe(body.length > RECORDED_BODY_CAP ? `${body.slice(0, RECORDED_BODY_CAP)}${TRUNCATION_MARK}` : body);
      // What the checks keep of the preflight for the whole run holds no list.
      expect(Object.keys(flight.open).sort()).toEqual(['gate', 'guard']);
      await flight.done;
    } finally {
      await server.close();
    }
  });
});
