import { listChecks } from '../../src/runner/list.js';

/** The suite's checks, collected once per test file: what captured traffic is judged by. */
export const CHECKS = (await listChecks()).checks;
