/**
 * The order of checks (src/check/define.ts `sequential`): a sequential check starts after
 * the checks declared before it have ended, and checks declared without it overlap. No
 * clock decides: a concurrent check waits for its neighbour to start, and would wait in
 * vain were they run one after the other (the bound below is then what fails the test).
 */
import { afterAll, describe, expect, test } from 'vitest';
import { withDefaults, type RunSettings } from '../../src/config/settings.js';
import { check } from '../../src/check/define.js';
import { registerFor, releaseRun } from '../../src/check/run-state.js';
import type { CheckDefinition } from '../../src/check/types.js';

const settings: RunSettings = { ...withDefaults({}), baseUrl: 'http://127.0.0.1:9/v1', apiKey: 'k', targetKind: 'external', seed: 1, runId: 'check-order-test', userAgent: 'test', profile: 'full', profileSource: 'default' };
const definition = (id: string): CheckDefinition => ({ id, title: `the ${id} check`, clause: '4.1', level: 'info', requirements: [] });

/** What happened, in order: `<id> start`, `<id> end`. */
const events: string[] = [];
/** Resolves once a check has started. */
const started = new Map<string, () => void>();
const hasStarted = new Map(['b'].map((id) => [id, new Promise<void>((resolve) => started.set(id, resolve))]));

/** Waits for `id` to start, for at most 5 s: a check run alone never sees its neighbour start. */
const sawStart = (id: string) => Promise.race([hasStarted.get(id)!.then(() => true), new Promise<boolean>((resolve) => setTimeout(() => resolve(false), 5_000))]);

describe('checks in declaration order', () => {
  registerFor(settings, () => {
    check(definition('a'), async () => {
      events.push('a start');
      events.push(`a saw b start: ${await sawStart('b')}`);
      events.push('a end');
    });
    check(definition('b'), async () => {
      events.push('b start');
      started.get('b')!();
      await new Promise((resolve) => setImmediate(resolve));
      events.push('b end');
    });
    check(
      definition('s'),
      async () => {
        events.push('s start');
        events.push('s end');
      },
      { sequential: true },
    );
  });

  afterAll(() => releaseRun(settings));

  test.sequential('a and b (concurrent) overlap; s (sequential) starts after both ended', () => {
    expect(events).toContain('a saw b start: true');
    const at = (event: string) => events.indexOf(event);
    expect(at('s start')).toBeGreaterThan(at('a end'));
    expect(at('s start')).toBeGreaterThan(at('b end'));
  });
});
