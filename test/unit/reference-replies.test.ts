/**
 * What the embedded reference server answers, held whole: the newcomer's first run judges
 * it, and every fault in test/faults/ is a change of it. A battery of requests, one per
 * decision the server makes (the base path, each route and method, the key and each way
 * it is wrong, each kind of bad body, the body limit), and each answer's status, the
 * headers that carry meaning, and its body, in a golden file.
 */
import { request } from 'undici';
import { afterAll, beforeAll, expect, test } from 'vitest';
import { REFERENCE_MAX_BODY_BYTES, startReferenceServer, type ReferenceServer } from '../../src/reference/server.js';

const KEY = 'reference-replies-key-0123456789';
let server: ReferenceServer;
beforeAll(async () => void (server = await startReferenceServer({ apiKey: KEY })));
afterAll(() => server.close());

/** One request of the battery: its method, the path after the origin, its Authorization header and its body. */
type Asked = [method: string, path: string, authorization: string | undefined, body?: string];

const KEYED = `Bearer ${KEY}`;
const BATTERY: Asked[] = [
  ['GET', '/v1/categories', KEYED],
  ['POST', '/v1/categories', KEYED, '{"name":"Cats","description":"Felines"}'],
  ['POST', '/v1/categories', KEYED, '{"name":"Dogs"}'],
  ['GET', '/v1/categories', KEYED],
  ['GET', '/v1/categories', undefined],
  ['GET', '/v1/categories', `Bearer ${KEY}x`],
  ['GET', '/v1/categories', `bearer ${KEY}`],
  ['GET', '/v1/categories', `Basic ${KEY}`],
  ['GET', '/v1/categories', KEY],
  ['POST', '/v1/categories', undefined, '{"name":"Cats"}'],
  ['POST', '/v1/categories', KEYED, '{"name":'],
  ['POST', '/v1/categories', KEYED, '{}'],
  ['POST', '/v1/categories', KEYED, '{"name":7}'],
  ['POST', '/v1/categories', KEYED, '{"name":""}'],
  ['POST', '/v1/categories', KEYED, '{"name":"a","description":7}'],
  ['POST', '/v1/categories', KEYED, '{"name":"a","extra":1}'],
  ['POST', '/v1/categories', KEYED, '[]'],
  ['POST', '/v1/categories', KEYED, JSON.stringify({ name: 'x'.repeat(REFERENCE_MAX_BODY_BYTES) })],
  ['PUT', '/v1/categories', KEYED, '{"name":"a"}'],
  ['DELETE', '/v1/categories', KEYED],
  ['GET', '/v1/pets/1', KEYED],
  ['GET', '/v1/store/orders', KEYED],
  ['GET', '/v1/other', KEYED],
  ['GET', '/v1/categories/', KEYED],
  ['GET', '/v1/Categories', KEYED],
  ['GET', '/v1/categories/1', KEYED],
  ['GET', '/v1/pets/1/more', KEYED],
  ['GET', '/v2/categories', KEYED],
  ['GET', '/categories', KEYED],
];

/** The headers that carry meaning for a client (not Date, not the connection's). */
const SHOWN = ['content-type', 'allow', 'www-authenticate', 'deprecation', 'sunset', 'location'];

test('the reference server answers the battery as the golden file holds', async () => {
  const lines: string[] = [];
  for (const [method, path, authorization, body] of BATTERY) {
    const answer = await request(`${server.baseUrl.replace(/\/v1$/, '')}${path}`, {
      method: method as 'GET',
      headers: { ...(authorization === undefined ? {} : { authorization }), ...(body === undefined ? {} : { 'content-type': 'application/json' }) },
      ...(body === undefined ? {} : { body }),
    });
    // V8's words for a JSON syntax error change between Node versions: held as a mark.
    const text = (await answer.body.text()).replace(/(not valid JSON: )[^"]*/, '$1<V8 message>');
    const headers = SHOWN.flatMap((name) => (answer.headers[name] === undefined ? [] : [`${name}: ${String(answer.headers[name])}`]));
    const asked = `${method} ${path}${authorization === undefined ? '' : ` (${authorization.replace(KEY, 'KEY')})`}${body === undefined ? '' : ` ${body.length > 60 ? `${body.slice(0, 60)}… (${body.length} bytes)` : body}`}`;
    lines.push(`${asked}\n  → ${answer.statusCode} ${headers.join('; ')}\n  ${text.length > 200 ? `${text.slice(0, 200)}…` : text}`);
  }
  await expect(`${lines.join('\n')}\n`).toMatchFileSnapshot('__snapshots__/reference-replies.txt');
});
