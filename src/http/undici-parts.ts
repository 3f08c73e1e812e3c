/**
 * The parts of undici that the HTTP client uses, each loaded from its own module. undici's
 * entry (`index.js`) requires all of its 111 modules at once (fetch, WebSocket, mocks,
 * caches): 47 ms on this project's machine, against 19 ms for these parts, on the suite
 * thread's start, which every run waits for. undici's version is pinned (package.json), and
 * test/unit/undici-parts.test.ts holds that each part is the very class undici exports.
 */
import { createRequire } from 'node:module';
import type * as Undici from 'undici';

const load = createRequire(import.meta.url);

const Dispatcher = load('undici/lib/dispatcher/dispatcher') as typeof Undici.Dispatcher;
// What undici's entry adds to every dispatcher: request(), stream() and the rest of its API.
Object.assign(Dispatcher.prototype, load('undici/lib/api'));

export const Client = load('undici/lib/dispatcher/client') as typeof Undici.Client;
export const Pool = load('undici/lib/dispatcher/pool') as typeof Undici.Pool;
export const EnvHttpProxyAgent = load('undici/lib/dispatcher/env-http-proxy-agent') as typeof Undici.EnvHttpProxyAgent;
export const buildConnector = load('undici/lib/core/connect') as typeof Undici.buildConnector;
