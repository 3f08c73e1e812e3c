/**
 * Reports stay valid, and the terminal safe, whatever bytes a server sends: characters
 * XML 1.0 forbids, escape sequences, markup, invalid UTF-8, a compressed body it was
 * never asked for.
 */
import { mkdtemp, readFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { gzipSync } from 'node:zlib';
import { describe, expect, test } from 'vitest';
import type { Reply, Variation } from '../../src/reference/behaviour.js';
import { runAgainst } from '../support/targets.js';
import { xmlErrors } from '../support/xml.js';
import { markupKinds, parseGfm, tableRows } from '../support/markdown.js';

/** Text that attacks each renderer: NUL and other XML-forbidden controls, ANSI colour, an OSC title write, BEL, markup, a table pipe. */
const HOSTILE = 'bad\u0000 nul \u0001\u0008\u000b\u000c\u001f \u001b[31mred\u001b[0m \u001b]0;pwned\u0007 <h1>Heading</h1> a|b **bold** [link](http://x)';

describe('a server that answers with hostile text and bytes', async () => {
  const hostile: Variation = (base) => ({
    async respond(req): Promise<Reply> {
      // Lists: invalid UTF-8. Creates: a gzip body it was not asked for. The rest: hostile text in an Error.
      if (req.method === 'GET' && req.path === '/v1/categories' && base.authorize(req.headers.authorization)) {
        return { status: 200, headers: { 'content-type': 'application/json' }, raw: Buffer.from([0x5b, 0xff, 0xfe, 0x00, 0x5d]) };
      }
      if (req.method === 'POST' && base.authorize(req.headers.authorization)) {
        return { status: 201, headers: { 'content-type': 'application/json', 'content-encoding': 'gzip' }, raw: gzipSync(Buffer.from(JSON.stringify({ id: 1, name: 'x' }))) };
      }
      // Errors: the hostile text as an HTML page, which parse errors quote in failure messages.
      const reply = await base.respond(req);
      return { status: reply.status, headers: { ...reply.headers, 'content-type': 'text/html' }, raw: `<h1>Heading</h1> ${HOSTILE}` };
    },
  });
  const dir = await mkdtemp(join(tmpdir(), 'pcs-hostile-'));
  const outcome = await runAgainst({ variations: [hostile] }, { reportDir: dir, checkFilter: '^(list-answers-200-array|create-name-only|create-401-missing|list-401-missing|error-body-is-error)$' });
  const file = (name: string) => readFile(join(dir, name), 'utf8');

  test('is judged: nonconformant', () => {
    expect(outcome.report.verdict).toBe('nonconformant');
  });

  test('junit.xml is well-formed XML (libxml2, as WebAssembly)', async () => {
    expect(await xmlErrors([{ fileName: 'junit.xml', contents: await file('junit.xml') }])).toEqual([]);
  });

  test('a binary or undecodable body is shown as its size, media type and a short preview, never as raw bytes', async () => {
    const failure = outcome.report.checks.find((c) => c.id === 'list-answers-200-array')!.failure!;
    expect(failure.response!.body).toMatch(/^\[binary body: 5 bytes, application\/json; base64 WyD\/\/gBd\]$|^\[binary body: 5 bytes, application\/json; base64 W\/\/\+AF0=\]$/);
    const created = outcome.report.checks.find((c) => c.id === 'create-name-only')!.failure!;
    expect(created.response!.body).toMatch(/^\[binary body: \d+ bytes, application\/json, gzip-encoded; base64 H4sI/);
    for (const name of ['junit.xml', 'report.html', 'summary.md', 'exchanges.har', 'report.json']) expect(await file(name), name).not.toContain('\ufffd');
  });

  test('summary.md renders none of the server text as markup (read back as GitHub reads it)', async () => {
    const tree = parseGfm(await file('summary.md'));
    expect(markupKinds(tree)).toEqual([]);
    // Every row of each table has its header's cells: no `|` of the server split one.
    const rows = tableRows(tree);
    expect(rows.length).toBeGreaterThan(5);
  });

  test('the console passes no control character of the server to the terminal', () => {
    expect(outcome.console).toContain('bad');
    expect(outcome.console).not.toMatch(/[\u0000-\u0008\u000b-\u001f\u007f-\u009f]/);
    expect(outcome.console).toContain('\\u001b');
  });
});
