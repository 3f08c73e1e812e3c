import type { CheckDefinition } from '../check/types.js';

/**
 * Checks only captured traffic can have: the active checks hold each request to the one
 * answer its input calls for; a capture's requests are whatever clients sent, so the rule
 * judged on each is the table of answers itself. And what only browsers send: CORS
 * preflights, outside the interface, observed.
 */
export const TRAFFIC_CHECKS: readonly CheckDefinition[] = [
  {
    id: 'answers-allowed-status',
    title: 'every captured request of the interface has an answer the spec lists: a list 200 or 401, a create 201, 400 or 401 (413 for a size limit, section 8)',
    clause: '4',
    level: 'must',
    requirements: ['R-4-ANSWERS'],
  },
  {
    id: 'cors-preflight-answered',
    title: 'every captured CORS preflight (OPTIONS with Access-Control-Request-Method) to the interface is answered 2xx: browsers send preflights without the key',
    clause: '5',
    level: 'info',
    reference: 'Fetch standard §4.8 (CORS-preflight fetch)',
    requirements: ['O-CORS-PREFLIGHT'],
  },
];
