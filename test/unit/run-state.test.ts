/**
 * The run's state as a check sees it (src/check/run-state.ts, src/check/context.ts): the
 * first look at the target goes out before anything that may write, and only then; a
 * class reads the state of its target while it registers its checks, and only then.
 */
import { afterEach, beforeEach, describe, expect, test } from 'vitest';
import { withDefaults, type RunSettings } from '../../src/config/settings.js';
import { CheckContext } from '../../src/check/context.js';
import { BASELINE_FORM } from '../../src/http/client-form.js';
import { registerFor, releaseRun, runState, RunState } from '../../src/check/run-state.js';
import type { Variation } from '../../src/reference/behaviour.js';
import { startReferenceServer, type ReferenceServer } from '../../src/reference/server.js';
import { startRawServer } from '../support/raw-server.js';

let server: ReferenceServer;
let settings: RunSettings;
let run: RunState;
/** Methods of the requests the run completed, in completion order. */
let sent: string[];

beforeEach(async () => {
  server = await startReferenceServer();
  settings = {
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

describe('the first look abandoned: its check records the attempt, then fails with the hung route', () => {
  test('a list on the same route timed out first: the look is abandoned, in the record of the check that takes it', async () => {
    const silent = await startRawServer(() => {});
    // Long enough that the look is on the wire before the first list times out, however loaded the machine.
    const hanging = new RunState({ ...settings, baseUrl: silent.baseUrl, timeoutMs: 1_500, runId: 'run-state-hang' });
    hanging.takeFirstLook('list-answers-200-array');
    try {
      const first = new CheckContext('list-items-are-categories', hanging).send('GET', '/categories', hanging.valid);
      while (silent.received.length < 1) await new Promise((resolve) => setTimeout(resolve, 5));
      void hanging.firstLook();
      const judge = new CheckContext('list-answers-200-array', hanging);
      await expect(judge.firstLook()).rejects.toMatchObject({ code: 'PCS_ROUTE_HUNG', identical: true });
      expect((await first).error?.code).toBe('TIMEOUT');
      expect(judge.exchanges.map((e) => [e.checkId, e.error?.code])).toEqual([['list-answers-200-array', 'ABANDONED']]);
    } finally {
      await hanging.close();
      await silent.close();
    }
  });
});

describe('the state of a target is read while a class registers its checks, never after', () => {
  test('inside registerFor: the state of the target registering, one per run id', async () => {
    const seen: RunState[] = [];
    registerFor(settings, () => void seen.push(runState(), runState()));
    expect(seen[0]).toBeInstanceOf(RunState);
    expect(seen[1]).toBe(seen[0]);
    await releaseRun(settings);
  });

  test('near miss: after registerFor returned (a check body running later), reading it is a defect of the suite', async () => {
    registerFor(settings, () => void runState());
    expect(() => runState()).toThrow(/while a class module registers its checks/);
    await releaseRun(settings);
  });
});

describe("a check sends only requests its premise admits (check/premises.ts)", () => {
  test('a body of another media type from a check of the interface is a defect of the suite, thrown before it is sent', async () => {
    const form = { ...BASELINE_FORM, contentType: 'text/plain' };
    await expect(new CheckContext('create-name-only', run).send('POST', '/categories', run.valid, { json: { name: 'a' } }, { form })).rejects.toThrow(
      'a defect of the suite: create-name-only sends a request outside its premise',
    );
    expect(sent).toEqual([]);
  });

  test('near miss: the same body as JSON is sent', async () => {
    await new CheckContext('create-name-only', run).send('POST', '/categories', run.valid, { json: { name: 'a' } });
    expect(sent).toEqual(['GET', 'POST']);
  });
});

describe('an id given twice by creates (create-ids-unique-at-scale reads run.repeats)', () => {
  /** A run against a server whose 201 answers carry `id` as `idOf` says (undefined: no id). */
  const createTwice = async (idOf: (id: unknown) => unknown) => {
    const answering: Variation = (base) => ({
      async respond(req) {
        const reply = await base.respond(req);
        if (reply.status !== 201) return reply;
        const { id, ...rest } = reply.body as Record<string, unknown>;
        const given = idOf(id);
        return { ...reply, body: given === undefined ? rest : { ...rest, id: given } };
      },
    });
    const target = await startReferenceServer({ variations: [answering] });
    const state = new RunState({ ...settings, baseUrl: target.baseUrl, apiKey: target.apiKey });
    try {
      for (const name of ['one', 'two']) await new CheckContext('create-name-only', state).send('POST', '/categories', state.valid, { json: { name } });
      return { created: state.created.map((category) => category.id), repeats: state.repeats.length };
    } finally {
      await state.close();
      await target.close();
    }
  };

  test('creates that give no id are not an id repeated: each is unknown, none the other', async () => {
    expect(await createTwice(() => undefined)).toEqual({ created: ['unknown', 'unknown'], repeats: 0 });
  });

  test('near miss: the same id given twice is a repeat', async () => {
    expect(await createTwice(() => 7)).toEqual({ created: ['7', '7'], repeats: 1 });
  });
});

describe('a category of this run that a list shows and no create told of (storedUnannounced)', () => {
  /** Stores a category behind the run's back, as a refused create the server kept would. */
  const storedBehind = async (name: string) => {
    const answer = await fetch(`${server.baseUrl}/categories`, { method: 'POST', headers: { authorization: `Bearer ${server.apiKey}`, 'content-type': 'application/json' }, body: JSON.stringify({ name }) });
    return String(((await answer.json()) as { id: number }).id);
  };

  test('is reported with the check whose list showed it, once; near misses: another run’s prefix, and a list of another check', async () => {
    const id = await storedBehind('pcs-run-state-test kept anyway');
    await storedBehind('pcs-another-run kept');
    const context = new CheckContext('list-ids-unique', run);
    await context.list();
    await context.list();
    expect(run.storedUnannounced('list-ids-unique')).toEqual([{ id, name: 'pcs-run-state-test kept anyway', checkId: 'list-ids-unique', unannounced: true }]);
    expect(run.storedUnannounced('list-answers-200-array')).toEqual([]);
  });

  test('near miss: one its own create told of is not', async () => {
    const context = new CheckContext('create-name-only', run);
    await context.send('POST', '/categories', run.valid, { json: { name: 'pcs-run-state-test told' } });
    await context.list();
    expect(run.storedUnannounced('create-name-only')).toEqual([]);
  });
});
