/**
 * The table of settings (src/config/settings.ts) is the one declaration of every setting:
 * its bounds hold on every path a value can take, and what derives from it stays derived.
 */
import { readFileSync } from 'node:fs';
import { describe, expect, test } from 'vitest';
import { accepts, checkValues, configSchema, parseArgument } from '../../src/config/setting-values.js';
import { SETTING_LIST, withDefaults, type NumberSetting } from '../../src/config/settings.js';
import { UsageError } from '../../src/core/errors.js';

const numeric = SETTING_LIST.filter((entry): entry is [(typeof entry)[0], NumberSetting] => entry[1].type === 'integer' || entry[1].type === 'number');

describe('every numeric setting has bounds, and they hold', () => {
  test.each(numeric)('%s: its bounds and default are accepted, values past them are not', (_name, setting) => {
    expect(Number.isFinite(setting.max)).toBe(true);
    for (const inside of [setting.min, setting.max, setting.default].filter((v) => v !== undefined)) {
      expect(accepts(setting, inside), String(inside)).toBe(true);
      if (setting.flag) expect(parseArgument(setting, String(inside))).toBe(inside);
    }
    for (const outside of [setting.min - 1, setting.max * 10, Number.MAX_SAFE_INTEGER, NaN, Infinity, -Infinity]) {
      expect(accepts(setting, outside), String(outside)).toBe(false);
      if (setting.flag) expect(() => parseArgument(setting, String(outside))).toThrow(/^expected (an integer|a number) from /);
    }
    if (setting.type === 'integer') expect(accepts(setting, setting.min + 0.5)).toBe(false);
  });

  test('an empty argument is not zero', () => {
    const [, timeout] = numeric.find(([name]) => name === 'timeoutMs')!;
    expect(() => parseArgument(timeout, ' ')).toThrow(/expected an integer/);
  });

  test('values given by code are checked against the same table', () => {
    expect(() => checkValues({ rateLimit: 1e-9 }, 'runConformance')).toThrow(UsageError);
    expect(() => checkValues({ rateLimit: 1e-9 }, 'runConformance')).toThrow('runConformance: rateLimit must be a number from 0.01 to 10000 (requests/s), not 1e-9');
    expect(() => checkValues({ profile: 'all' as never }, 'x')).toThrow(/profile must be one of full, read-only/);
    expect(() => checkValues({ rateLimit: 5, connections: 8, profile: 'read-only' }, 'x')).not.toThrow();
  });

  test.each([
    ['a boolean', 'strict', true, false, 'true'],
    ['a pattern of checks', 'checkFilter', '^list-', '', '('],
  ] as const)('%s setting (%s): %j and %j are accepted; near miss: %j is not', (_kind, name, first, second, refused) => {
    expect(() => checkValues({ [name]: first }, 'x')).not.toThrow();
    expect(() => checkValues({ [name]: second }, 'x')).not.toThrow();
    expect(() => checkValues({ [name]: refused as never }, 'x')).toThrow(UsageError);
  });
});

describe('what derives from the table', () => {
  test('schemas/config.schema.json is the schema the table generates (npm run schemas)', () => {
    const committed = JSON.parse(readFileSync(new URL('../../schemas/config.schema.json', import.meta.url), 'utf8')) as unknown;
    expect(committed).toEqual(configSchema());
  });

  test('the configuration schema bounds every number as the command line does', () => {
    const properties = (configSchema() as { properties: { targets: { additionalProperties: { properties: Record<string, { minimum?: number; maximum?: number }> } } } })
      .properties.targets.additionalProperties.properties;
    for (const [name, setting] of numeric.filter(([, s]) => s.config)) {
      // A setting that also takes words (`all`): the number is one of its schema's alternatives.
      const number = (properties[name] as { oneOf?: Array<{ minimum?: number }> }).oneOf?.[0] ?? properties[name];
      expect(number).toMatchObject({ minimum: setting.min, maximum: setting.max });
    }
  });

  test('defaults fill what was not given, and nothing else', () => {
    const resolved = withDefaults({ connections: 4 });
    expect(resolved.connections).toBe(4);
    expect(resolved.timeoutMs).toBe(10_000);
    expect(resolved.rateLimit).toBeUndefined();
  });
});

test('report.json describes every reported setting, and no other', () => {
  const schema = JSON.parse(readFileSync(new URL('../../schemas/report.schema.json', import.meta.url), 'utf8')) as { properties: { settings: { properties: Record<string, unknown> } } };
  const described = Object.keys(schema.properties.settings.properties).sort();
  const reported = [...SETTING_LIST.filter(([, setting]) => setting.reported).map(([name]) => name), 'runId', 'profileSource'].sort();
  expect(described).toEqual(reported);
});

test("a fleet's own settings reach runFleet from the table (declared `fleet`), none passed by hand", async () => {
  const { mkdtemp, writeFile, rm } = await import('node:fs/promises');
  const { tmpdir } = await import('node:os');
  const { join } = await import('node:path');
  const { resolveFleet } = await import('../../src/cli/run-options.js');
  const dir = await mkdtemp(join(tmpdir(), 'pcs-fleet-'));
  try {
    await writeFile(join(dir, 'petstore-conformance.yaml'), 'targets:\n  a:\n    baseUrl: http://127.0.0.1:9/v1\n  b:\n    baseUrl: http://127.0.0.1:9/v1\n');
    const declared = SETTING_LIST.filter(([, setting]) => setting.fleet).map(([name]) => name);
    expect(declared.sort()).toEqual(['deadlineSeconds', 'shard', 'targetConcurrency']);
    const { members, fleet } = await resolveFleet({ targets: 'all', targetConcurrency: 3, deadlineSeconds: 50, shard: '2/2' }, () => true, { PETSTORE_API_KEY: 'k'.repeat(20) }, dir);
    expect(fleet).toEqual({ targetConcurrency: 3, deadlineSeconds: 50, shard: { index: 2, count: 2 } });
    expect(members.map((member) => member.targetName)).toEqual(['b']);
  } finally {
    await rm(dir, { recursive: true });
  }
});

test('the table as users meet it, held whole: each setting\'s flag, bounds, default and roles (config, reported, replays, fleet); a change here is a change of the interface', async () => {
  const table = SETTING_LIST.map(([name, setting]) => ({ name, ...setting }));
  await expect(`${JSON.stringify(table, null, 1)}\n`).toMatchFileSnapshot('__snapshots__/settings-table.json');
});
