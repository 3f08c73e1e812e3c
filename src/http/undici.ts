import { createRequire } from 'node:module';
import type { Agent as UndiciAgent, Dispatcher } from 'undici';

// undici's index loads fetch, WebSocket, mocks and caches too: about 70 ms of the suite
// worker's start, on the critical path of every run. The client needs two of its modules,
// the agent and request(), and loads only those (undici has no exports map; its version
// is pinned, and every test of the suite goes through these two).
const require = createRequire(import.meta.url);

/** undici's Agent: a keep-alive pool per origin. */
export const Agent = require('undici/lib/dispatcher/agent.js') as typeof UndiciAgent;

/**
 * undici's request() as a method of a dispatcher: `request.call(agent, { origin, path, method, ... })`.
 * @throws (rejects) undici's errors for transport failures (see toTransportError).
 */
export const request = require('undici/lib/api/api-request.js') as (this: Dispatcher, options: Dispatcher.RequestOptions) => Promise<Dispatcher.ResponseData>;

export type { UndiciAgent, Dispatcher };
