import { randomBytes } from 'node:crypto';
import type { Fault } from '../support/fault.js';

/**
 * Breaks 5/R1 and 5/R2: a keyed answer opens a session, `Set-Cookie: session=…` (as
 * express-session and Django's session middleware do by default), and a request that
 * sends the cookie back is let through without its key. Clients keep cookies (RFC 6265):
 * browsers and most HTTP libraries send it back on their own. Section 5 puts the key in
 * the Authorization header of every request.
 */
export default {
  breaks: '5/R2',
  variation: (base, { apiKey }) => {
    const sessions = new Set<string>();
    const sessionOf = (cookie: string | undefined) => /(?:^|;\s*)session=([^;]+)/.exec(cookie ?? '')?.[1];
    return {
      async respond(req) {
        const session = sessionOf(req.headers.cookie);
        if (req.headers.authorization === undefined && session !== undefined && sessions.has(session)) {
          return base.respond({ ...req, headers: { ...req.headers, authorization: `Bearer ${apiKey}` } });
        }
        const reply = await base.respond(req);
        if (!base.authorize(req.headers.authorization) || session !== undefined) return reply;
        const opened = randomBytes(12).toString('hex');
        sessions.add(opened);
        return { ...reply, headers: { ...reply.headers, 'set-cookie': `session=${opened}; Path=/; HttpOnly` } };
      },
    };
  },
  expected: {
    failed: ['auth-key-outside-authorization'],
  },
} satisfies Fault;
