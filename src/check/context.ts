import { bodyText, isIdempotent, type RequestBody } from '../http/request.js';
import { BASELINE_FORM, type ClientForm } from '../http/client-form.js';
import { premiseOf } from './premises.js';
import type { InvalidCredential } from '../arbitraries/invalid-credential.js';
import type { Credential } from '../http/credential.js';
import { withBodyCapped, type Exchange } from '../core/exchange.js';
import type { RunState } from './run-state.js';
import { deriveSeed } from './seed.js';
import type { PropertyRecord } from './types.js';

/** How {@link CheckContext.send} writes a request, beyond its method, path, credential and body. */
export interface SendOptions {
  /** How the request is written (default: the suite's own way). */
  form?: ClientForm;
  /** The path is from the origin, not below the base URL's path (another spelling of the version segment). */
  fromOrigin?: boolean;
  /** What the request is, in words, for findings about its answer: `an extra member nested 1,000 levels deep`. */
  label?: string;
}

/**
 * What a check works with: the run's state and request helpers that record every
 * exchange under the check's id (so the report can show it, and the section-7
 * invariants can inspect it).
 */
export class CheckContext {
  /** Exchanges this check made, in completion order, bodies capped (RECORDED_BODY_CAP). */
  readonly exchanges: Exchange[] = [];
  /** How the check's property ran, when it has one (set by assertProperty). */
  property: PropertyRecord | undefined;
  /** What the check observed beyond its verdict (see {@link observe}). */
  readonly observations: string[] = [];
  /** The key material of the credentials it sent, by value, with the form each is shown in. */
  readonly secrets = new Map<string, string>();
  /** Requests sent and not yet ended: the check ends after them (see {@link ended}). */
  readonly #inFlight = new Set<Promise<unknown>>();

  constructor(
    readonly checkId: string,
    readonly run: RunState,
  ) {}

  /**
   * Sends one request through the run's client. The key material a credential holds is
   * registered with the run's redactor first, so no record of the exchange can show it.
   * @throws Error, a defect of the suite, when a request with a body is outside the
   *   check's premise (check/premises.ts): the traffic judge would not hold a captured
   *   request like it to the check's rule, so the check may not either.
   */
  send(method: string, path: string, credential: Credential & { secrets?: InvalidCredential['secrets'] }, body?: RequestBody, options: SendOptions = {}): Promise<Exchange> {
    const sending = this.#send(method, path, credential, body, options);
    const tracked = sending.catch(() => {}).finally(() => this.#inFlight.delete(tracked));
    this.#inFlight.add(tracked);
    return sending;
  }

  /**
   * Resolves once every request the check sent has ended, those its body left running
   * included (a `Promise.all` that rejected at its first failure): their exchanges are then
   * all in {@link exchanges}, and none arrives after the check's result is reported.
   */
  async ended(): Promise<void> {
    while (this.#inFlight.size > 0) await Promise.all(this.#inFlight);
  }

  async #send(method: string, path: string, credential: Credential & { secrets?: InvalidCredential['secrets'] }, body: RequestBody | undefined, options: SendOptions): Promise<Exchange> {
    const { form, fromOrigin, label } = options;
    this.#assertPremise(method, (fromOrigin ? new URL(this.run.settings.baseUrl).origin : this.run.settings.baseUrl) + path, body, form ?? BASELINE_FORM);
    for (const { value, shown } of credential.secrets ?? []) {
      this.run.redactor.addDerived([{ value, shown }]);
      this.secrets.set(value, shown);
    }
    // The run's first look at the target is a list made before anything is written to it;
    // if it failed, its check says so, and the writes go on.
    if (!isIdempotent({ method, credential })) await this.run.firstLook();
    // The record keeps capped bodies: a check judges a full body once, as it arrives; 40 lists of 16 MiB kept whole would hold 640 MiB.
    return this.run.client.send({ method, path, credential, body, form, ...(fromOrigin ? { fromOrigin } : {}), ...(label ? { label } : {}) }, this.checkId, (exchange) => this.exchanges.push(withBodyCapped(exchange)));
  }

  /**
   * A request with a body must meet the check's premise; one without (the lists and probes
   * a rule needs besides its subject) meets every premise but a transport feature's.
   */
  #assertPremise(method: string, url: string, body: RequestBody | undefined, form: ClientForm): void {
    const text = bodyText(body, form.json);
    if (text === undefined) return;
    const headers: Record<string, string> = { 'content-type': form.contentType, ...(form.framing === 'chunked' ? { 'transfer-encoding': 'chunked' } : {}) };
    const premise = premiseOf(this.checkId);
    if (!premise.holds({ method, url, headers, body: text })) throw new Error(`a defect of the suite: ${this.checkId} sends a request outside its premise (${premise.words})`);
  }

  /** listCategories (spec 4.1), with the valid key unless told otherwise, written as `form` says (default: the suite's own way). */
  list(credential: Credential = this.run.valid, form?: ClientForm): Promise<Exchange> {
    return this.send('GET', '/categories', credential, undefined, { form });
  }

  /** createCategory (spec 4.2), with the valid key unless told otherwise, written as `form` says (default: the suite's own way). */
  create(body: RequestBody | undefined, credential: Credential = this.run.valid, form?: ClientForm): Promise<Exchange> {
    return this.send('POST', '/categories', credential, body, { form });
  }

  /** Whether the run is read-only: no request may carry a body a server could store. */
  get readOnly(): boolean {
    return this.run.settings.profile === 'read-only';
  }

  /**
   * The run's first look at the target (see RunState.firstLook), recorded as this check's
   * exchange: for the check that judges it. Its attempts are recorded whatever its outcome.
   * @throws what the client threw for it (a stopped run, a hung route); Error when this
   *   check does not take the run's first look.
   */
  async firstLook(): Promise<Exchange> {
    const look = await this.run.claimFirstLook();
    this.exchanges.push(...look.attempts);
    if ('error' in look) throw look.error;
    return look.exchange;
  }

  /** Records an observation, e.g. a length limit found: reported with the check, never a failure. */
  observe(text: string): void {
    if (!this.observations.includes(text)) this.observations.push(text);
  }

  /** A number derived from the run seed, this check and `label`: reproducible randomness. */
  derived(label: string): number {
    return deriveSeed(this.run.settings.seed, `${this.checkId}:${label}`);
  }

  /**
   * A category name unique to this run and check, recognisable as test data:
   * `pcs-<runId> <check id> <label>`.
   */
  name(label = ''): string {
    return testDataName(this.run.settings.runId, this.checkId, label);
  }
}

/**
 * The name of test data a check writes, unique to the run and the check and recognisable
 * as test data: `pcs-<runId> <check id> <label>`. Also for inputs built when the check is
 * declared (coverage phases), before any context exists.
 */
export function testDataName(runId: string, checkId: string, label = ''): string {
  return `pcs-${runId} ${checkId}${label ? ` ${label}` : ''}`;
}
