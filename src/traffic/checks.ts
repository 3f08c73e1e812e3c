import type { CheckDefinition } from '../check/types.js';

/**
 * Checks only captured traffic can have: what only browsers send, CORS preflights, outside
 * the interface, observed. Every other rule a capture is judged by is an active check's.
 */
export const TRAFFIC_CHECKS: readonly CheckDefinition[] = [
  {
    id: 'cors-preflight-answered',
    title: 'every captured CORS preflight (OPTIONS with Access-Control-Request-Method) to the interface is answered 2xx: browsers send preflights without the key',
    clause: '5',
    level: 'info',
    reference: 'Fetch standard §4.8 (CORS-preflight fetch)',
    requirements: ['O-CORS-PREFLIGHT'],
  },
];
