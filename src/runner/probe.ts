import type { RunSettings } from '../config/settings.js';
import { hasCode } from '../core/errors.js';
import type { Exchange } from '../core/exchange.js';
import { listenForStop } from '../core/stop-channel.js';
import { HttpClient } from '../http/client.js';
import type { Credential } from '../http/credential.js';
import { RequestGuard } from '../http/safety.js';
import { KEY_PLACEHOLDER, Redactor } from '../secrets/redactor.js';

const NO_CREDENTIAL: Credential = { name: 'missing', description: 'no Authorization header' };

/**
 * One GET /categories without credentials, sent by the suite's thread as it starts, beside
 * the first checks: tells an unreachable target (exit 3, no check judged) from one that
 * answers, whatever it answers. Unauthenticated, it sends no key and is answered before
 * any handler logic that might hang. The run's stop (stop-channel.ts) abandons it. Sent
 * from the runner's thread, it loaded the HTTP client and undici there too: 13 MiB of
 * the run's peak RSS (median of 11 runs) and 23 ms.
 * @throws Error for a defect of the tool (never for the target's failures).
 */
export async function probe(settings: RunSettings): Promise<Exchange> {
  const guard = new RequestGuard(settings);
  const stopListening = listenForStop(settings.runId, (reason) => guard.stop(reason));
  // The exchange is redacted where it is written (the runner's thread); the client's previews need a redactor of their own.
  const client = new HttpClient({ ...settings, redactor: new Redactor().add(settings.apiKey, KEY_PLACEHOLDER), guard });
  const request = { method: 'GET', path: '/categories', credential: NO_CREDENTIAL } as const;
  let last: Exchange | undefined;
  try {
    return await client.send(request, 'preflight', (attempt) => (last = attempt));
  } catch (error) {
    if (!hasCode(error, 'PCS_RUN_STOPPED')) throw error;
    // Stopped before or while it was sent: no answer, and no finding either.
    return last ?? notSent(`${settings.baseUrl}${request.path}`, error.message);
  } finally {
    stopListening();
    await client.close();
  }
}

/** The probe's record when the run stopped before it was sent. */
function notSent(url: string, message: string): Exchange {
  return {
    seq: 0,
    checkId: 'preflight',
    credential: NO_CREDENTIAL.name,
    request: { method: 'GET', url, headers: {} },
    error: { code: 'ABANDONED', message, phase: 'headers' },
    startedAt: new Date().toISOString(),
    durationMs: 0,
    connection: 'fresh',
  };
}
