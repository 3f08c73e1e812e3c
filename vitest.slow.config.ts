import { defineConfig } from 'vitest/config';
import { SHARED } from './vitest.config.js';
import { SLOW_TESTS } from './test/tiers.js';

/** The slow tier (test/tiers.ts): `npm run test:slow`, run by CI after `npm test`. */
export default defineConfig({ test: { ...SHARED, include: [...SLOW_TESTS] } });
