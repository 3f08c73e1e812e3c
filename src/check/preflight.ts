/**
 * The run's preflight: before any check sends, one `GET /categories` with the key decides
 * whether the run can go on, and names the user's own mistake when it cannot (kubectl and
 * terraform check credentials and the endpoint before any work, and say which is wrong).
 * A target that refuses the key, or a base URL where no such service answers, is not
 * assessable: the run stops with one diagnosis, and no check is judged through it.
 * Whatever else the list answers (a hang, a 5xx, a wrong body) is the checks' to judge.
 */
import type { Exchange, TransportErrorCode } from '../core/exchange.js';
import { isJsonMediaType } from '../http/media-type.js';
import { redirectedToSpelling } from '../http/path-spellings.js';
import type { RequestGuard } from '../http/safety.js';
import { parseJson } from '../json/lossless.js';
import { violations } from '../schema/validators.js';

/**
 * Transport errors that mean the target was never reached. Others (a reset mid-body, an
 * oversized or malformed answer) mean it answered something: the checks judge that.
 */
export const UNREACHABLE: readonly TransportErrorCode[] = ['CONNECTION_REFUSED', 'HOST_NOT_FOUND', 'TLS', 'CONNECT_TIMEOUT', 'PROXY', 'OTHER'];

/** Whether the unauthenticated probe shows a target never reached: the run judges nothing but that. */
export function unreachable(probe: Exchange | undefined): boolean {
  return probe?.error !== undefined && UNREACHABLE.includes(probe.error.code);
}

/** After the unauthenticated probe answered, how long the checks wait at most for the keyed list (ms): a list that hangs is the checks' to judge. */
export const PREFLIGHT_GRACE_MS = 500;

/**
 * Why the run cannot go on, from the keyed list's answer; undefined when it can.
 * - 401 or 403: the target refuses the key (a 403 may also be a gateway that wants a header of its own).
 * - 404, a redirect, or a 2xx whose body is no JSON and whose media type is not JSON (a
 *   web page), while the keyless probe showed no sign of the interface either (no 401,
 *   section 5/R1): the base URL is not where the service answers. Where the probe got its
 *   401, the service is there, and such an answer to the key is its own: the checks judge it.
 * - Never a redirect to another spelling of the spec's own path on the same origin (a
 *   trailing slash, another case): the base URL is right, and the service answers the
 *   spec's path with a redirect, which the checks judge (a must failure naming it).
 * @param keySource where the key came from, in words (`PETSTORE_API_KEY`).
 * @param probe the keyless list's exchange, once it settled.
 */
export function preflightDiagnosis(keyed: Exchange | undefined, keySource: string, probe?: Exchange): string | undefined {
  const response = keyed?.response;
  if (!response) return undefined;
  const { status } = response;
  const url = keyed.request.url;
  const type = response.headers['content-type'] ?? 'no media type';
  const body = violations('Error', jsonOf(response.body)).length === 0 ? 'an Error body' : `a body of ${type}`;
  if (status === 401) return `the target refuses the key (401 with ${body}): check ${keySource}, and that it is this target's key`;
  // 403: the key may lack a permission, or a gateway in front wants a credential of its own.
  if (status === 403) return `the target refuses the key (403 with ${body}): check ${keySource}, its permissions, and any header a gateway in front needs (--header, --header-env)`;
  const page = status >= 200 && status < 300 && !isJsonMediaType(response.headers['content-type']) && !parseJson(response.body).ok;
  const redirect = status >= 300 && status < 400 && !redirectedToSpelling(url, response.headers.location);
  if ((status === 404 || redirect || page) && probe?.response?.status !== 401) {
    const to = redirect && response.headers.location ? ` to ${response.headers.location}` : '';
    return `is the base URL right? GET ${url} answered ${status}${to} ${type}: the base URL ends with the version segment /v1 where the service mounts it`;
  }
  return undefined;
}

/** A body's JSON value, or undefined when it is none. */
function jsonOf(body: string): unknown {
  const parsed = parseJson(body);
  return parsed.ok ? parsed.json.value : undefined;
}

/** A target's preflight as its checks see it: the gate they wait on, and the guard its requests counted against. */
export interface OpenPreflight {
  /** Resolves with the diagnosis, if any, once the checks may send. */
  gate: Promise<string | undefined>;
  /** The run's guard: the preflight's requests count against --max-requests, as the checks' do. */
  guard: RequestGuard;
}

/** Each target's preflight, by run id, as the suite's thread opens it. */
const preflights = new Map<string, OpenPreflight>();

/** Opens a target's preflight (the suite's thread, before its checks are registered). */
export function openPreflight(runId: string, preflight: OpenPreflight): void {
  preflights.set(runId, preflight);
}

/** A target's preflight, for its checks to wait on; undefined when none was opened (a run that collects only, a test's own state). */
export function preflightOf(runId: string): OpenPreflight | undefined {
  return preflights.get(runId);
}
