import { withDefaults, type RunSettings } from '../config/settings.js';
import { toolVersion } from '../core/package-info.js';
import type { CheckList } from '../report/check-list.js';
import { CATALOGUE } from '../requirements/catalogue.js';
import { collectChecks } from './suite.js';

/**
 * Every check the suite declares and the requirements catalogue, read from the suite's
 * files as vitest collects them: no server is started and no request is sent.
 * @throws Error when the suite's files cannot be collected.
 */
export async function listChecks(): Promise<CheckList> {
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
