/**
 * A check's record holds every request it sent (src/check/define.ts, context.ts): a
 * request its body left running (a `Promise.all` that rejected at its first failure) ends
 * before the check does, so its exchange is in the result the runner receives, and so does
 * one that it sends once it has returned. No clock decides: the server answers only once
 * the first body has returned.
 */
import { afterAll, describe, expect, test } from 'vitest';
import { withDefaults, type RunSettings } from '../../src/config/settings.js';
import { check } from '../../src/check/define.js';
import { registerFor, releaseRun } from '../../src/check/run-state.js';
import type { CheckMeta } from '../../src/check/types.js';
import { startRawServer } from '../support/raw-server.js';

let returned!: () => void;
const bodyReturned = new Promise<void>((resolve) => (returned = resolve));
const server = await startRawServer((_req, res) => void bodyReturned.then(() => res.writeHead(200, { 'content-type': 'application/json' }).end('[]')));
const settings: RunSettings = { ...withDefaults({}), baseUrl: server.baseUrl, apiKey: 'k'.repeat(20), targetKind: 'external', seed: 1, runId: 'check-record-test', userAgent: 'test', profile: 'full', profileSource: 'default' };

describe('a check that returns while a request it sent is under way', () => {
  registerFor(settings, () => {
    check({ id: 'leaves-a-request', title: 'sends a list and returns before its answer', clause: '4.1', level: 'info', requirements: [] }, async (t) => {
      void t.list();
      while (server.received.length < 1) await new Promise((resolve) => setTimeout(resolve, 5));
      returned();
    });
    // Near miss: what it left running sends once more after its first answer.
    check({ id: 'leaves-a-chain', title: 'sends a list, then another once it is answered, and returns at once', clause: '4.1', level: 'info', requirements: [] }, async (t) => {
      void t.list().then(() => t.list());
    });
  });

  afterAll(async () => {
    await releaseRun(settings);
    await server.close();
  });

  test.sequential('ends after it: the answer is in its record', ({ task }) => {
    const meta = task.suite!.tasks.find((sibling) => sibling.name === 'leaves-a-request')!.meta.check as CheckMeta;
    expect(meta.recorded).toBe(1);
    expect(meta.exchanges.map((exchange) => exchange.response?.status)).toEqual([200]);
  });

  test.sequential('ends after every request it sent, one sent after it returned included', ({ task }) => {
    const meta = task.suite!.tasks.find((sibling) => sibling.name === 'leaves-a-chain')!.meta.check as CheckMeta;
    expect(meta.exchanges.map((exchange) => exchange.response?.status)).toEqual([200, 200]);
  });
});
