/**
 * The tool's own trouble never becomes a verdict (issue 22, section 1): what the target
 * refuses of the tool's configuration, and the tool's own failures, end the run with exit
 * 3 and one line naming the cause, never exit 1.
 */
import { describe, expect, test } from 'vitest';
import { runConformance } from '../../src/runner/run.js';
import { startRawServer } from '../support/raw-server.js';

describe('a configured header the target refuses', () => {
  test("node:http's header limit answers 431 to every request: not assessable, the header and the status named", async () => {
    // Node's own server, with a 4 KiB header limit, as a small gateway or server has: the
    // handler is never reached.
    const server = await startRawServer((_req, res) => res.writeHead(500).end(), { maxHeaderSize: 4096 });
    try {
      const outcome = await runConformance({ baseUrl: server.baseUrl, apiKey: 'a-key-of-sixteen-or-more', headers: [`X-Trace: ${'t'.repeat(6000)}`], reportDir: null, out: null });
      expect(outcome.report.verdict).toBe('error');
      expect(outcome.exitCode).toBe(3);
      expect(outcome.report.verdictReason).toMatch(/^every request \(\d+\) was answered 431, each carrying the configured header x-trace \(6000 bytes\)/);
      expect(server.received).toHaveLength(0);
    } finally {
      await server.close();
    }
  });

  test('the same 400 to everything without a configured header: a finding, exit 1', async () => {
    const server = await startRawServer((_req, res) => res.writeHead(400, { 'content-type': 'application/json' }).end('{"code":"x","message":"no","status":400}'));
    try {
      const outcome = await runConformance({ baseUrl: server.baseUrl, apiKey: 'a-key-of-sixteen-or-more', checkFilter: '^list-answers-200-array$', reportDir: null, out: null });
      expect(outcome.report.verdict).toBe('nonconformant');
      expect(outcome.exitCode).toBe(1);
    } finally {
      await server.close();
    }
  });
});
