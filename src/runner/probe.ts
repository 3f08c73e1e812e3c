import { channelOf, type RunSettings } from '../config/settings.js';
import { hasCode } from '../core/errors.js';
import { withBodyCapped, type Exchange } from '../core/exchange.js';
import { listenForStop } from '../core/stop-channel.js';
import { HttpClient } from '../http/client.js';
import { NO_CREDENTIAL, validCredential, type Credential } from '../http/credential.js';
import { PREFLIGHT_GRACE_MS, preflightDiagnosis, unreachable, type OpenPreflight } from '../check/preflight.js';
import { RequestGuard } from '../http/safety.js';
import { KEY_PLACEHOLDER, Redactor } from '../secrets/redactor.js';

/** A target's preflight under way: each part settles as it is known (the probe's exchange first). */
export interface Preflight {
  /** The unauthenticated list: whether the target is reached. */
  probe: Promise<Exchange>;
  /** The keyed list (its body capped as every record's: core/exchange.ts), and why the run cannot go on when it cannot (check/preflight.ts). */
  keyed: Promise<{ exchange: Exchange; diagnosis?: string }>;
  /**
   * What the target's checks keep of it (check/preflight.ts): the gate that opens their
   * requests, with the diagnosis if any, once the keyed list has answered or a moment after
   * the probe did (a list that hangs is the checks' to judge); and the guard both went
   * through, which the checks go through too (the budgets count every request). Never the
   * lists themselves: the checks hold this for the whole run.
   */
  open: OpenPreflight;
  /** Both sent and their connections closed. */
  done: Promise<void>;
}

/**
 * The target's preflight, sent by the suite's thread as it starts: one GET /categories
 * without credentials, which tells an unreachable target (exit 3, no check judged) from one
 * that answers, whatever it answers (unauthenticated, it is answered before any handler
 * logic that might hang); and one with the key, beside it, whose answer names a key the
 * target refuses or a base URL where the service does not answer. The run's stop
 * (stop-channel.ts) abandons both. Sent from the runner's thread, it loaded the HTTP client
 * and undici there too: 13 MiB of the run's peak RSS (median of 11 runs) and 23 ms.
 * Its promises reject only for a defect of the tool (never for the target's failures).
 * @param turn resolves when the preflight may send (its `open` part exists from the
 *   start, for the target's checks to wait on): a fleet's lane sends a few at a time
 *   ({@link PREFLIGHTS_AT_ONCE}).
 */
export function probe(settings: RunSettings, turn: Promise<void> = Promise.resolve()): Preflight {
  const guard = new RequestGuard(settings);
  try {
    return preflight(settings, guard, turn);
  } catch (error) {
    // A defect of the tool (settings it cannot use): said through the promises, as any other.
    const failed = Promise.reject(error);
    failed.catch(() => {});
    return { probe: failed, keyed: failed as never, open: { gate: Promise.resolve(undefined), guard }, done: Promise.resolve() };
  }
}

function preflight(settings: RunSettings, guard: RequestGuard, turn: Promise<void>): Preflight {
  const stopListening = listenForStop(channelOf(settings), (reason) => guard.stop(reason));
  // The exchange is redacted where it is written (the runner's thread); the client's previews need a redactor of their own.
  const client = new HttpClient({ ...settings, redactor: new Redactor().add(settings.apiKey, KEY_PLACEHOLDER), guard });
  const send = async (credential: Credential): Promise<Exchange> => {
    let last: Exchange | undefined;
    await turn;
    try {
      return await client.send({ method: 'GET', path: '/categories', credential }, 'preflight', (attempt) => (last = attempt));
    } catch (error) {
      if (!hasCode(error, 'PCS_RUN_STOPPED') && !hasCode(error, 'PCS_ROUTE_HUNG')) throw error;
      // Stopped before or while it was sent: no answer, and no finding either.
      return last ?? notSent(credential, `${settings.baseUrl}/categories`, error.message);
    }
  };
  const probed = send(NO_CREDENTIAL);
  // Judged beside the probe's answer: a 401 there shows the interface is at this base URL.
  const keyed = Promise.all([send(validCredential(settings.apiKey)), probed.catch(() => undefined)]).then(([exchange, answer]) => {
    const diagnosis = preflightDiagnosis(exchange, settings.keySource ?? 'the API key', answer);
    // Judged whole, kept as every record is: a target's list may be megabytes, and the report shows 64 KiB of it.
    const kept = withBodyCapped(exchange);
    return diagnosis ? { exchange: kept, diagnosis } : { exchange: kept };
  });
  // A target that either request finds unreachable opens no check's requests: the run judges the probe alone, whatever the load on this machine delays.
  const gate = Promise.race([
    keyed.then(({ exchange, diagnosis }) => diagnosis ?? (unreachable(exchange) ? UNREACHED : undefined)),
    probed.then(async (exchange) => (unreachable(exchange) ? UNREACHED : (await delay(PREFLIGHT_GRACE_MS), undefined))),
  ]);
  const done = Promise.allSettled([probed, keyed]).then(async () => {
    stopListening();
    await client.close();
  });
  return { probe: probed, keyed, open: { gate, guard }, done };
}

/**
 * Preflights a lane sends at once. A lane's targets are checked one after another, and
 * each one's preflight need only be done by its turn: sent all at once, a lane of 320
 * targets put 640 lists before its first target's checks, on the thread that reads
 * their answers (and, behind one gateway, on the target), and a loaded machine let those
 * checks' first requests wait out their deadline. A few at a time, the preflights stay
 * well ahead of the checks: each is two lists.
 */
export const PREFLIGHTS_AT_ONCE = 4;

/** Why the checks send nothing to a target the preflight did not reach (the report says why from the probe: report/build.ts). */
const UNREACHED = 'the target is unreachable';

/** Resolves after `ms`, holding nothing open. */
const delay = (ms: number) => new Promise<void>((resolve) => setTimeout(resolve, ms).unref());

/** The record of a preflight request when the run stopped before it was sent. */
function notSent(credential: Credential, url: string, message: string): Exchange {
  return {
    seq: 0,
    checkId: 'preflight',
    credential: credential.name,
    request: { method: 'GET', url, headers: {} },
    error: { code: 'ABANDONED', message, phase: 'headers' },
    startedAt: new Date().toISOString(),
    durationMs: 0,
    connection: 'fresh',
  };
}
