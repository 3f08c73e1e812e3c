import { createVitest } from 'vitest/node';
import { startReferenceServer } from './dist/src/reference/server.js';
import { withDefaults } from './dist/src/config/settings.js';
const t0 = performance.now();
const results = [];
const reporter = { onTestCaseResult: (tc) => results.push(tc.name), onTestRunEnd: () => {} };
const servers = await Promise.all([1,2,3].map(() => startReferenceServer({})));
const settingsOf = (s, i) => ({ ...withDefaults({}), baseUrl: s.baseUrl, apiKey: s.apiKey, targetKind: 'external', seed: 7+i, runId: 'r'+i, userAgent: 'x', profile: 'full', profileSource: 'default', checkFilter: process.env.F });
const vitest = await createVitest('test', { root: process.cwd(), config: false, watch: process.env.W === '1', dir: 'dist/worker', include: ['conformance.test.js'], reporters: [reporter], pool: 'threads', experimental: { viteModuleRunner: false, nodeLoader: false }, maxWorkers: 1, fileParallelism: false, isolate: false, maxConcurrency: 16, provide: { run: settingsOf(servers[0], 0) } }, { logLevel: 'silent' });
console.log('created', Math.round(performance.now() - t0));
let t = performance.now();
await vitest.start();
console.log('run 1', Math.round(performance.now() - t), results.length, servers[0].store.size);
for (const i of [1, 2]) {
  results.length = 0;
  vitest.getRootProject().provide('run', settingsOf(servers[i], i));
  t = performance.now();
  const specs = await vitest.globTestSpecifications();
  await vitest.runTestSpecifications(specs, true);
  console.log('run', i + 1, Math.round(performance.now() - t), results.length, servers.map((s) => s.store.size));
}
await vitest.close();
await Promise.all(servers.map((s) => s.close()));
console.log('total', Math.round(performance.now() - t0));
