/**
 * The key, and every credential derived from it, never appear in any file or console
 * line, in whatever encoding a server echoes them: JSON with `/` escaped (PHP's default)
 * or every character `\u`-escaped, percent-encoded (a cookie), base64 (a Basic echo), HTML
 * entities. Generated credentials included.
 */
import { mkdtemp, readdir, readFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, expect, test } from 'vitest';
import type { Variation } from '../../src/reference/behaviour.js';
import { runAgainst } from '../support/targets.js';

/** A key with the characters that encodings treat apart: `/`, `+`, `~`, `.`, `_`, `-`. */
const KEY = 'Echo/Key+abc~def.ghi_jkl-mno/pqr+0123';

/** Every form of `token` the echoing server below writes. */
function encodings(token: string): string[] {
  return [
    token,
    JSON.stringify(token).slice(1, -1).replaceAll('/', '\\/'),
    [...token].map((c) => `\\u${c.charCodeAt(0).toString(16).padStart(4, '0')}`).join(''),
    encodeURIComponent(token),
    Buffer.from(`user:${token}`).toString('base64'),
    [...token].map((c) => `&#${c.charCodeAt(0)};`).join(''),
    [...token].map((c) => (/[A-Za-z0-9]/.test(c) ? c : `&#x${c.charCodeAt(0).toString(16)};`)).join(''),
  ];
}

describe('an echoing server', async () => {
  const received = new Set<string>();
  // Answers 401 as it should, echoing the credential it got in every encoding.
  const echo: Variation = (base) => ({
    unauthorized(req) {
      const header = req.headers.authorization;
      const reply = base.unauthorized(req);
      if (header === undefined) return reply;
      received.add(header);
      const [, token = header] = /^\S+ (.*)$/.exec(header) ?? [];
      const [raw, php, escaped, percent, basic, decimal, hex] = encodings(token);
      const text = `rejected ${raw}; php ${php}; escaped ${escaped}; cookie ${percent}; basic ${basic}; html ${decimal} ${hex}`;
      return {
        status: 401,
        headers: { ...reply.headers, 'set-cookie': `seen=${percent}; Path=/`, 'x-basic': `Basic ${basic}`, 'content-type': 'application/json' },
        raw: `{"code":"unauthorized","message":"${php} ${escaped}","status":401,"detail":"${text.replaceAll('\\', '\\\\').replaceAll('"', '\\"')}"}`,
      };
    },
  });
  const dir = await mkdtemp(join(tmpdir(), 'pcs-redaction-'));
  const outcome = await runAgainst({ variations: [echo], apiKey: KEY }, { reportDir: dir, checkFilter: '^(create-401|list-401|auth-rejects-generated|model-based)' });
  const files = await Promise.all((await readdir(dir)).map(async (name) => [name, await readFile(join(dir, name), 'utf8')] as const));

  test('the server saw the key and generated credentials derived from it', () => {
    expect([...received].some((header) => header.includes(KEY.slice(4, 20)) && header !== `Bearer ${KEY}`)).toBe(true);
    expect(received.size).toBeGreaterThan(20);
    expect(files.map(([name]) => name).sort()).toEqual(['exchanges.har', 'junit.xml', 'report.html', 'report.json', 'summary.md']);
  });

  test('no file and no console line holds any of them, in any encoding', () => {
    // The unknown key (pcs-invalid-…) is a random token, and an SQL tautology a fixed one, not key material: they are shown on purpose.
    const tokens = [...received].map((header) => /^\S+ (.*)$/.exec(header)?.[1] ?? header).filter((token) => token.length >= 12 && !token.startsWith('pcs-invalid-') && !/ OR /.test(token));
    const outputs: Array<readonly [string, string]> = [...files, ['console', outcome.console]];
    const leaks: string[] = [];
    for (const token of tokens) {
      for (const form of encodings(token)) {
        for (const [name, text] of outputs) if (text.includes(form)) leaks.push(`${name}: ${form.slice(0, 40)}`);
      }
    }
    expect(leaks).toEqual([]);
  });
});

/**
 * The user's own values print whole: a key `petstore-staging-…` shares 9 characters with a
 * report folder `…/petstore-conformance/reports` and 17 with a base URL; the console's
 * Reports and Open lines and report.json's target name them as given. Near miss: a folder
 * named after the whole key is still redacted.
 */
describe('a key that shares characters with the user\'s own values', () => {
  const SHARED_KEY = 'petstore-staging-7f3a9c1e5b2d4680';
  test('the report path and the base URL print whole; the whole key in a path does not', async () => {
    const root = await mkdtemp(join(tmpdir(), 'pcs-own-'));
    const { startNamedFront } = await import('../support/named-front.js');
    let front: Awaited<ReturnType<typeof startNamedFront>> | undefined;
    try {
      const reportDir = join(root, 'petstore-conformance', 'reports');
      const shared = await runAgainst(
        { apiKey: SHARED_KEY, front: async ({ baseUrl }) => (front = await startNamedFront(baseUrl, 'petstore-staging-7.example.test')).baseUrl },
        { checkFilter: '^list-answers-200-array$', reportDir, profile: 'read-only', get env() { return { HTTP_PROXY: front!.proxyUrl }; } },
      );
      expect(shared.console).toContain(`Reports: ${reportDir} (report.json`);
      expect(shared.console).toContain(`Open ${reportDir}/report.html`);
      expect(shared.console).toMatch(/checking http:\/\/petstore-staging-7\.example\.test:\d+\/v1, profile\s+read-only/);
      const report = JSON.parse(await readFile(join(reportDir, 'report.json'), 'utf8')) as { target: { baseUrl: string } };
      expect(report.target.baseUrl).toMatch(/^http:\/\/petstore-staging-7\.example\.test:\d+\/v1$/);
      await front!.close();
      front = undefined;
      // Near miss: the whole key in the folder's name.
      const whole = join(root, SHARED_KEY);
      const keyed = await runAgainst({ apiKey: SHARED_KEY }, { checkFilter: '^list-answers-200-array$', reportDir: whole });
      expect(keyed.console).toContain(`Reports: ${join(root, '${PETSTORE_API_KEY}')} (report.json`);
      expect(keyed.console).not.toContain(SHARED_KEY);
    } finally {
      await front?.close();
    }
  }, 60_000);
});
