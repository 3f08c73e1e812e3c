import { defineConfig } from 'vitest/config';
import { SHARED } from './vitest.config.js';
import { GROUND_TESTS } from './test/tiers.js';

/** The proving ground (test/tiers.ts), the slow tier's last part: alone, one file at a time. */
export default defineConfig({ test: { ...SHARED, maxWorkers: 1, include: [...GROUND_TESTS] } });
