/**
 * The build's last step (scripts/build.mjs): the suite's checks, collected once from the
 * compiled suite and written where src/runner/list.ts reads them, so that `judge`, `proxy`
 * and `list` start without collecting them (a thread and vitest's runner: some 300 ms).
 * Run after dist/ is in place: the collection loads dist's own suite bundle.
 */
import { writeFileSync } from 'node:fs';
import { collect, STORED_CHECKS } from '../src/runner/list.js';

const { checks } = await collect();
writeFileSync(new URL(`../src/${STORED_CHECKS}`, import.meta.url), `${JSON.stringify(checks)}\n`);
