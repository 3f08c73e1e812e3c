import type { IncomingMessage } from 'node:http';
import { Readable } from 'node:stream';
import type { Fault } from '../support/fault.js';

/**
 * Breaks 4.2/R1: a streamed body (Transfer-Encoding: chunked, no Content-Length) is
 * collected with `req.on('data', (chunk) => body += chunk)`, each chunk decoded as UTF-8
 * on its own, the classic Node.js mistake. A character that a chunk boundary cuts comes
 * out as U+FFFD U+FFFD, and the damaged name is stored and answered 201. Bodies with a
 * Content-Length are read whole, so only clients that stream their bodies meet it.
 */
export default {
  breaks: '4.2/R1',
  variation: () => ({}),
  server(server) {
    const handlers = server.listeners('request') as Array<(req: IncomingMessage, ...rest: unknown[]) => void>;
    server.removeAllListeners('request');
    server.on('request', (req: IncomingMessage, res) => {
      if (req.headers['content-length'] !== undefined) return void handlers.forEach((handler) => handler(req, res));
      let body = '';
      req.on('data', (chunk: Buffer) => (body += chunk));
      req.on('end', () => {
        const damaged = Object.assign(Readable.from([Buffer.from(body)]), { method: req.method, url: req.url, headers: req.headers });
        for (const handler of handlers) handler(damaged as unknown as IncomingMessage, res);
      });
    });
  },
  expected: {
    failed: ['chunked-body-created-exactly'],
  },
} satisfies Fault;
