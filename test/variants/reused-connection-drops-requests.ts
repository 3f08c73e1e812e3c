import type { Socket } from 'node:net';
import type { CorrectVariant } from '../support/fault.js';
import { HARNESS_DEADLINE_MS } from '../support/targets.js';

/** Every this many GETs that arrive on a kept-alive connection, one is never answered. */
const EVERY = 20;

/**
 * A keep-alive bug below the interface, as a server that loses a request on a reused
 * connection (a body left unread on it, an event loop that misses it): every 20th GET that
 * arrives on a kept-alive connection is never answered, and the same request on a new
 * connection is. The operations are correct; the connection is not served (RFC 9112 §9.3):
 * connections-answered (should) finds it, no must check fails.
 */
export default {
  allowedBy: '4 (the operations answer; persistent connections are HTTP/1.1’s, RFC 9112 §9.3)',
  variation: () => ({}),
  server: (server) => {
    const [handler] = server.listeners('request') as Array<(...args: unknown[]) => void>;
    server.removeAllListeners('request');
    const served = new WeakMap<Socket, number>();
    let reusedGets = 0;
    server.on('request', (req, res) => {
      const count = (served.get(req.socket) ?? 0) + 1;
      served.set(req.socket, count);
      if (count > 1 && req.method === 'GET' && ++reusedGets % EVERY === 0) return;
      handler!(req, res);
    });
  },
  // The run waits a request deadline for each lost request, and the server shares the run's process: the
  // harness's deadline. At 3 s, with the slow tier beside two other vitest runs, a correct answer queued past it
  // in 3 of 120 runs (auth-rejects-generated-credentials, model-based-sequences: TIMEOUT). The lost requests
  // of a pass wait together: 30 s costs a run some 30 s more, not 30 s a request.
  options: { timeoutMs: HARNESS_DEADLINE_MS },
  expectedNotPassed: ['connections-answered'],
} satisfies CorrectVariant;
