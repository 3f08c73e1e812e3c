/**
 * No run of 8 characters of a secret, in any encoding, in anything `run`, `judge` and
 * `proxy` write (issue 46): a server echoes the API key and a `--header-env` secret with
 * characters dropped from either end, in one encoding per property, in a response header,
 * in its Error bodies, and straddling the recording limit of a large body; every file
 * written, stdout and stderr are searched for any run of 8 of their characters in every
 * encoding (test/support/secret-forms.ts).
 */
import { readdir, readFile } from 'node:fs/promises';
import { join } from 'node:path';
import fc from 'fast-check';
import { request } from 'undici';
import { describe, expect, test } from 'vitest';
import { RECORDED_BODY_CAP } from '../../src/core/exchange.js';
import type { Variation } from '../../src/reference/behaviour.js';
import { startReferenceServer } from '../../src/reference/server.js';
import { entry, error, writeHar } from '../support/har.js';
import { startCli, tempDir } from '../support/cli-child.js';
import { echoArbitrary, ENCODINGS, piecesIn, secretArbitrary } from '../support/secret-forms.js';
import { runAgainst } from '../support/targets.js';

type Encoding = keyof typeof ENCODINGS;

/** What a server echoes of `secret`: `drop` characters off its start, `cut` off its end, encoded. */
const echoOf = (encoding: Encoding, secret: string, drop: number, cut: number) => ENCODINGS[encoding](secret.slice(drop, secret.length - cut));

/**
 * An Error body whose `detail` holds `echo` so that the recording limit (RECORDED_BODY_CAP
 * characters) falls `into` characters into it: what is kept ends inside the echo.
 */
function straddling(echo: string, into: number): string {
  const at = (pad: number) => JSON.stringify({ ...JSON.parse(error(401)), detail: `${'x'.repeat(pad)}${echo}` });
  const start = at(0).indexOf(echo);
  return at(RECORDED_BODY_CAP - start - Math.min(into, echo.length));
}

/** A server that echoes the key and a gateway secret, encoded, in a header on every answer and in every Error body, one of them past the recording limit. */
function echoing(key: string, gateway: string, encode: (text: string) => string, into: number): Variation {
  return (base) => ({
    async respond(req) {
      const reply = await base.respond(req);
      const headers = { ...reply.headers, 'x-echo': encode(key) };
      if (reply.status !== 401) return { ...reply, headers };
      return { ...reply, raw: straddling(`${encode(gateway)} ${encode(key)}`, into), headers: { ...headers, 'content-type': 'application/json' } };
    },
  });
}

/** Every file under `dir` (one level of folders), as text. */
async function filesIn(dir: string): Promise<Array<[string, string]>> {
  const found: Array<[string, string]> = [];
  for (const item of await readdir(dir, { withFileTypes: true, recursive: true })) {
    if (item.isFile()) found.push([join(item.parentPath, item.name), await readFile(join(item.parentPath, item.name), 'utf8')]);
  }
  return found;
}

/** The runs of 8 characters of any of `secrets` that `outputs` hold, each named by where. */
const leaks = (secrets: string[], outputs: Array<[string, string]>) => outputs.flatMap(([name, text]) => secrets.flatMap((secret) => piecesIn(secret, text).map((piece) => `${name}: ${piece}`)));

const echo = echoArbitrary.chain((kept) => fc.record({ kept: fc.constant(kept), gateway: secretArbitrary, into: fc.nat({ max: 200 }) }));

describe.each(Object.keys(ENCODINGS) as Encoding[])('echoed %s', (encoding) => {
  test('run, judge and proxy: no run of 8 characters of the key or the gateway secret in any file, stdout or stderr (property)', async () => {
    await fc.assert(
      fc.asyncProperty(echo, async ({ kept: { secret: key, drop, cut }, gateway, into }) => {
        // The same drops for the gateway secret, as far as its length allows 8 characters left.
        const encode = (text: string) => {
          const start = Math.min(drop, text.length - 8);
          return echoOf(encoding, text, start, Math.min(cut, text.length - 8 - start));
        };
        const dir = await tempDir();
        const env = { GATEWAY_SECRET: gateway, PETSTORE_API_KEY: key };
        const outputs: Array<[string, string]> = [];

        // run
        const ran = await runAgainst({ variations: [echoing(key, gateway, encode, into)], apiKey: key }, { reportDir: join(dir, 'run'), headerEnv: ['X-Gateway-Key=GATEWAY_SECRET'], env, checkFilter: '^(list-401-missing|list-answers-200-array|create-401-unknown-key)$' });
        outputs.push(['run console', ran.console], ...(await filesIn(join(dir, 'run'))));

        // judge: a capture whose client sent both secrets, and whose server echoed them
        const echoed = encode(key);
        const capture = await writeHar(dir, 'capture.har', [
          entry({ status: 200, responseBody: '[]', authorization: `Bearer ${key}`, requestHeaders: { 'X-Gateway-Key': gateway, Cookie: `session=${encodeURIComponent(key)}` }, responseHeaders: { 'X-Echo': echoed } }),
          entry({ status: 401, responseBody: straddling(`${encode(gateway)} ${echoed}`, into), authorization: `Basic ${Buffer.from(`${key}:`).toString('base64')}`, responseHeaders: { 'X-Echo': echoed } }),
        ]);
        const judged = await startCli(['judge', capture, '--base-url', 'https://petstore.example/v1', '--api-key-env', 'PETSTORE_API_KEY', '--header-env', 'X-Gateway-Key=GATEWAY_SECRET', '--report-dir', join(dir, 'judge')], env).result;
        outputs.push(['judge stdout', judged.stdout], ['judge stderr', judged.stderr], ...(await filesIn(join(dir, 'judge'))));

        // proxy
        const server = await startReferenceServer({ variations: [echoing(key, gateway, encode, into)], apiKey: key });
        try {
          const proxy = startCli(['proxy', '--base-url', server.baseUrl, '--port', '0', '--har', join(dir, 'proxy.har'), '--report-dir', join(dir, 'proxy'), '--api-key-env', 'PETSTORE_API_KEY', '--header-env', 'X-Gateway-Key=GATEWAY_SECRET'], env);
          const url = (await proxy.until(/listening on (http:\/\/\S+\/v1):/))[1]!;
          for (const authorization of [`Bearer ${key}`, `Bearer ${key.slice(1)}`, undefined]) {
            const answer = await request(`${url}/categories`, { headers: { 'x-gateway-key': gateway, ...(authorization ? { authorization } : {}) } });
            await answer.body.text();
          }
          proxy.child.kill('SIGTERM');
          const ended = await proxy.result;
          outputs.push(['proxy stdout', ended.stdout], ['proxy stderr', ended.stderr], [join(dir, 'proxy.har'), await readFile(join(dir, 'proxy.har'), 'utf8')], ...(await filesIn(join(dir, 'proxy'))));
        } finally {
          await server.close();
        }

        expect(outputs.length).toBeGreaterThan(12);
        expect(leaks([key, gateway], outputs)).toEqual([]);
      }),
      { seed: 20261127, numRuns: 2 },
    );
  }, 120_000);
});
