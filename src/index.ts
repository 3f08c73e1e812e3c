/**
 * The programmatic API of petstore-conformance: `import { runConformance } from
 * 'petstore-conformance'`. Runs the suite in this process and hands back the report; the
 * CLI is a thin layer over it (flags → RunOptions, RunOutcome.exitCode → exit code).
 */
export { runConformance, type RunOptions, type RunOutcome } from './runner/run.js';
export { runFleet, type FleetMember, type FleetOptions, type FleetOutcome } from './runner/fleet.js';
export { mergeFleets, type MergeOutcome } from './runner/merge.js';
export type { FleetReport, FleetTarget } from './report/fleet.js';
export { listChecks } from './runner/list.js';
export { EXIT, exitCodeFor } from './report/verdict.js';
export type { CheckResult, Coverage, Report, Verdict } from './report/model.js';
export type { CheckList } from './report/check-list.js';
export type { CheckDefinition } from './check/types.js';
export { startReferenceServer, type ReferenceServer } from './reference/server.js';
