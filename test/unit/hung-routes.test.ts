/**
 * Routes that hang (src/http/hung-routes.ts): a timeout hangs its route only when nothing
 * on the route was answered since the request went out, and the first timeout stays the
 * evidence.
 */
import { performance } from 'node:perf_hooks';
import { describe, expect, test } from 'vitest';
import type { RouteHung } from '../../src/core/errors.js';
import { NO_CREDENTIAL, validCredential, validCredentialSpelled } from '../../src/http/credential.js';
import { HungRoutes } from '../../src/http/hung-routes.js';
import type { RequestSpec } from '../../src/http/request.js';
import { unanswered } from '../support/exchanges.js';

const valid = validCredential('k');
const list: RequestSpec = { method: 'GET', path: '/categories', credential: valid };
const create = (name: string): RequestSpec => ({ method: 'POST', path: '/categories', credential: valid, body: { json: { name } } });
/** What assertOpen says of `spec`: open, or the hung route's evidence and whether it was this very request. */
const state = (routes: HungRoutes, spec: RequestSpec) => {
  try {
    routes.assertOpen(spec);
    return 'open';
  } catch (error) {
    return { seq: (error as RouteHung).evidence.seq, identical: (error as RouteHung).identical };
  }
};

describe('a timeout hangs its route', () => {
  test('when nothing on the route was answered after it was sent: the same request and any other on the route are refused', () => {
    const routes = new HungRoutes();
    routes.answered(list);
    routes.timedOut(create('a'), performance.now() + 1_000, unanswered('TIMEOUT', { seq: 7, method: 'POST' }));
    expect([state(routes, create('a')), state(routes, create('b')), state(routes, list)]).toEqual([{ seq: 7, identical: true }, { seq: 7, identical: false }, 'open']);
  });

  test('near miss: a request on the route answered after it was sent keeps the route open', () => {
    const routes = new HungRoutes();
    const sentAt = performance.now();
    routes.answered(create('b'));
    routes.timedOut(create('a'), sentAt, unanswered('TIMEOUT', { seq: 7, method: 'POST' }));
    expect(state(routes, create('a'))).toBe('open');
  });

  test('the first timeout stays the evidence: a later one on a hung route changes nothing', () => {
    const routes = new HungRoutes();
    routes.timedOut(create('a'), performance.now(), unanswered('TIMEOUT', { seq: 7, method: 'POST' }));
    routes.timedOut(create('b'), performance.now(), unanswered('TIMEOUT', { seq: 8, method: 'POST' }));
    expect(state(routes, create('b'))).toEqual({ seq: 7, identical: false });
  });

  test('the key under another spelling of the scheme is on the keyed route: blocked once that route hangs, at once; a request without the key is not', () => {
    const routes = new HungRoutes();
    routes.timedOut(list, performance.now() + 1_000, unanswered('TIMEOUT', { seq: 3 }));
    const spelled = (scheme: string): RequestSpec => ({ method: 'GET', path: '/categories', credential: validCredentialSpelled('k', scheme) });
    const keyless: RequestSpec = { method: 'GET', path: '/categories', credential: NO_CREDENTIAL };
    expect([state(routes, spelled('bearer')), state(routes, spelled('BEARER')), state(routes, keyless)]).toEqual([{ seq: 3, identical: false }, { seq: 3, identical: false }, 'open']);
  });

  test('requests still waiting on the route are abandoned; one that ended is not', () => {
    const routes = new HungRoutes();
    const abandoned: string[] = [];
    routes.track(create('waiting'), (reason) => abandoned.push(`waiting: ${reason.identical}`));
    routes.track(create('a'), (reason) => abandoned.push(`a: ${reason.identical}`));
    const untrack = routes.track(create('ended'), () => abandoned.push('ended'));
    untrack();
    routes.timedOut(create('a'), performance.now(), unanswered('TIMEOUT', { seq: 7, method: 'POST' }));
    expect(abandoned).toEqual(['waiting: false', 'a: true']);
  });
});
