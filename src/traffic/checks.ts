import type { CheckDefinition } from '../check/types.js';

/**
 * Checks only captured traffic can have: the active checks hold each request to the one
 * answer its input calls for; a capture's requests are whatever clients sent, so the rule
 * judged on each is the table of answers itself.
 */
export const TRAFFIC_CHECKS: readonly CheckDefinition[] = [
  {
    id: 'answers-allowed-status',
    title: 'every captured request of the interface has an answer the spec lists: a list 200 or 401, a create 201, 400 or 401 (413 for a size limit, section 8)',
    clause: '4',
    level: 'must',
    requirements: ['R-4-ANSWERS'],
  },
];
