import { existsSync } from 'node:fs';
import { readFile } from 'node:fs/promises';
import type { CheckDefinition } from '../check/types.js';
import { withDefaults, type RunSettings } from '../config/settings.js';
import { compiledModule } from '../core/build-state.js';
import { toolVersion } from '../core/package-info.js';
import type { CheckList } from '../report/check-list.js';
import { CATALOGUE } from '../requirements/catalogue.js';
import { TRAFFIC_CHECKS } from '../traffic/checks.js';
import { collectChecks } from './suite.js';

/** The collection under way or done: once per process (a run with known failures and traffic asks twice, a proxy for hours). */
let collected: Promise<CheckList> | undefined;

/**
 * Every check the suite declares and the requirements catalogue, read from the suite's
 * files as vitest collects them, once per process: no server is started and no request is sent.
 * @throws Error when the suite's files cannot be collected (the next call tries again).
 */
export function listChecks(): Promise<CheckList> {
  collected ??= (stored() ?? collect()).catch((error: unknown) => {
    collected = undefined;
    throw error;
  });
  return collected;
}

/** Where the build keeps the checks it collected (scripts/check-list.ts), under the compiled src/. */
export const STORED_CHECKS = 'runner/check-list.json';

/**
 * The checks as the build collected them, when it did and is current (a collection starts
 * a thread and vitest's runner: some 300 ms of every `judge`, `proxy` and `list`);
 * undefined otherwise.
 */
function stored(): Promise<CheckList> | undefined {
  const file = compiledModule(import.meta.url, STORED_CHECKS);
  if (file === undefined || !existsSync(file)) return undefined;
  return readFile(file, 'utf8').then((text) => ({ checks: JSON.parse(text) as CheckDefinition[], requirements: CATALOGUE }));
}

/** The suite's checks and the catalogue, collected now from the suite's files. */
export async function collect(): Promise<CheckList> {
  // What the declarations read: a run's defaults, against no target.
  const settings: RunSettings = {
    ...withDefaults({}),
    baseUrl: 'http://127.0.0.1/v1',
    // A key of a usual length: the coverage inputs derived from it are shown as expansions of the key variable.
    apiKey: 'example-key-0123456789abcdefABCD',
    targetKind: 'embedded',
    seed: 0,
    runId: 'list',
    userAgent: `petstore-conformance/${toolVersion}`,
    profile: 'full',
    profileSource: 'default',
  };
  return { checks: await collectChecks(settings), requirements: CATALOGUE };
}

/** Every check id a known failure may name: the suite's, and captured traffic's own (`cors-preflight-answered`). */
export async function checkIds(): Promise<string[]> {
  return [...(await listChecks()).checks, ...TRAFFIC_CHECKS].map((check) => check.id);
}
