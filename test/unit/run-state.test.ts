/**
 * The run's state as a check sees it (src/check/run-state.ts, src/check/context.ts): the
 * first look at the target goes out before anything that may write, and only then.
 */
import { afterEach, beforeEach, describe, expect, test } from 'vitest';
import { withDefaults, type RunSettings } from '../../src/config/settings.js';
import { CheckContext } from '../../src/check/context.js';
import { RunState } from '../../src/check/run-state.js';
import { startReferenceServer, type ReferenceServer } from '../../src/reference/server.js';

let server: ReferenceServer;
let run: RunState;
/** Methods of the requests the run completed, in completion order. */
let sent: string[];

beforeEach(async () => {
  server = await startReferenceServer();
  const settings: RunSettings = {
    ...withDefaults({}),
    baseUrl: server.baseUrl,
    apiKey: server.apiKey,
    targetKind: 'embedded',
    seed: 1,
    runId: 'run-state-test',
    userAgent: 'test',
    profile: 'full',
    profileSource: 'default',
  };
  run = new RunState(settings);
  sent = [];
  run.observe((exchange) => sent.push(exchange.request.method));
  run.takeFirstLook('list-answers-200-array');
});

afterEach(async () => {
  await run.close();
  await server.close();
});

describe('the first look: one list before the first request that may write', () => {
  test("a create of another check waits for the look: a store that starts empty is seen empty", async () => {
    await new CheckContext('create-name-only', run).send('POST', '/categories', run.valid, { json: { name: 'first write' } });
    expect(sent).toEqual(['GET', 'POST']);
    // The check that judges the look finds it sent, and sends nothing more.
    const look = await new CheckContext('list-answers-200-array', run).firstLook();
    expect([look.response?.body, sent]).toEqual(['[]', ['GET', 'POST']]);
  });

  test('near miss: a list of another check writes nothing, so it does not send the look', async () => {
    await new CheckContext('list-items-are-categories', run).send('GET', '/categories', run.valid);
    expect(sent).toEqual(['GET']);
    await new CheckContext('list-answers-200-array', run).firstLook();
    expect(sent).toEqual(['GET', 'GET']);
  });
});
