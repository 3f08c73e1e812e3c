import type { Socket } from 'node:net';
import type { CorrectVariant } from '../support/fault.js';

/** Connections held open at once; the next is reset. */
export const CAP = 8;

/**
 * Behind a per-client cap on connections, as gateways set one (nginx `limit_conn`, HAProxy
 * `maxconn`, a cloud load balancer): while 8 connections are open, a new one is reset at
 * once, before anything is read from it. Section 8 leaves limits open: the run keeps to
 * the cap it meets and reports it as a policy (connections-answered), never a fault.
 */
export default {
  allowedBy: '8 (limits are not shown)',
  variation: () => ({}),
  server: (server) => {
    const open = new Set<Socket>();
    server.prependListener('connection', (socket: Socket) => {
      if (open.size >= CAP) return void socket.resetAndDestroy();
      open.add(socket);
      socket.on('close', () => open.delete(socket));
    });
  },
  observes: [/^the target held [4-8] connections at once and reset those beyond \(\d+ resets?, each request sent again\): a limit on connections \(section 8\); the run used [1-8]$/],
  observedBy: 'connections-answered',
} satisfies CorrectVariant;
