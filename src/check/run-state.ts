import escapeStringRegexp from 'escape-string-regexp';
import { secretHeaders } from '../config/extra-headers.js';
import { channelOf, type RunSettings } from '../config/settings.js';
import { HttpClient } from '../http/client.js';
import { validCredential, type Credential } from '../http/credential.js';
import { withBodyCapped, type Exchange } from '../core/exchange.js';
import { RequestGuard } from '../http/safety.js';
import { KEY_PLACEHOLDER, Redactor } from '../secrets/redactor.js';
import { exactInteger, jsonText, lexemeOf, parseJson } from '../json/lossless.js';
import { wasCreateApplied } from './applied.js';
import { exampleCredentials, type InvalidCredential } from '../arbitraries/invalid-credential.js';
import { derivedHex } from './seed.js';
import type { CheckLevel, CreatedCategory } from './types.js';
import { progressReporter, type ProgressReporter } from '../core/progress-channel.js';
import { listenForStop } from '../core/stop-channel.js';
import { HeapPacer } from '../core/heap-pacer.js';
import { preflightOf } from './preflight.js';

/**
 * The state one target's run shares across all its checks inside the suite's thread (the
 * suite runs in a single worker without isolation; a fleet's lane runs several targets
 * there, each with its own state): the client, the redactor, the credentials, and who
 * observes every exchange.
 */
export class RunState {
  readonly settings: RunSettings;
  readonly redactor: Redactor;
  readonly client: HttpClient;
  readonly valid: Credential;
  readonly invalid: InvalidCredential[];
  /** The level of every check that has started, by id: invariants weigh exchanges by it. */
  readonly levels = new Map<string, CheckLevel>();
  /** Categories the target reported as created so far, in completion order. */
  readonly created: CreatedCategory[] = [];
  /** The creates whose id an earlier create of the run was given already (capped), in completion order. */
  readonly repeats: Exchange[] = [];
  /** The ids of {@link created}, for telling a repeat at once. */
  readonly #createdIds = new Set<string>();
  #ownPattern: RegExp | undefined;
  /** Strings starting with the run's prefix in the categories it knows of (#noteListedOwn). */
  #ownStringsKnown = 0;
  /** This run's categories that keyed lists showed before any create's answer told of them, by id. */
  readonly #listedOwn = new Map<string, CreatedCategory>();
  /** The HTTP version of the target's latest answer (`HTTP/1.0`, `HTTP/1.1`); undefined before any answer. */
  peerVersion: string | undefined;

  readonly #observers: Array<(exchange: Exchange) => void> = [];
  readonly #stopListening: () => void;
  /** Posts the count of requests sent, when a status line shows it. */
  readonly #progress: ProgressReporter | undefined;

  /** Whether the run was told to stop (a signal, the deadline): checks that have not started do not. */
  interrupted = false;

  /** The check that judges the run's first look; once sent, when it settled, and its result until that check claims it. */
  #firstLook: { checkId: string; settled?: Promise<void>; result?: Promise<FirstLook> } | undefined;

  /** The profile, budgets and stop of the run: every request passes it. */
  readonly guard: RequestGuard;

  constructor(settings: RunSettings) {
    this.settings = settings;
    const preflight = preflightOf(settings.runId);
    // One guard with the preflight's: its requests count against the budgets as the checks' do.
    this.guard = preflight?.guard ?? new RequestGuard(settings);
    // Signals and the deadline are caught by the thread that started the run.
    this.#stopListening = listenForStop(channelOf(settings), (reason) => {
      this.interrupted = true;
      this.guard.stop(reason);
    });
    this.#progress = settings.progress ? progressReporter(channelOf(settings)) : undefined;
    this.redactor = new Redactor().add(settings.apiKey, KEY_PLACEHOLDER).addAll(secretHeaders(settings.extraHeaders));
    this.valid = validCredential(settings.apiKey);
    this.invalid = exampleCredentials(settings.apiKey, derivedHex(settings.seed, 'unknown-key', 24));
    for (const credential of this.invalid) this.redactor.addDerived(credential.secrets ?? []);
    // No request before the preflight has spoken (check/preflight.ts): a key the target
    // refuses, or a wrong base URL, stops the run before any check sends.
    const gate = preflight?.gate.then((diagnosis) => {
      if (diagnosis) this.guard.stop(diagnosis);
    });
    this.client = new HttpClient({
      ...settings,
      redactor: this.redactor,
      guard: this.guard,
      ...(gate ? { gate } : {}),
      wasApplied: (spec, send) => wasCreateApplied(spec, send, this.valid, new Set(this.created.map((category) => category.id))),
      onExchange: (exchange) => {
        this.#progress?.sent(this.guard.counts.requests);
        if (exchange.response) this.peerVersion = exchange.response.httpVersion ?? 'HTTP/1.1';
        for (const observer of this.#observers) observer(exchange);
        this.#noteListedOwn(exchange);
        const category = createdCategory(exchange);
        if (!category) return;
        if (category.id !== 'unknown' && this.#createdIds.has(category.id)) this.repeats.push(withBodyCapped(exchange));
        this.#createdIds.add(category.id);
        this.#ownStringsKnown += this.#ownStrings(exchange.response!.body);
        this.created.push(category);
      },
    });
  }

  /**
   * Notes the categories of this run's that a keyed list shows and no create's answer has
   * told of yet: a name or a description that starts `pcs-<runId> ` (context.ts names what a
   * check writes so, and tags descriptions so). A list is parsed only when it holds more
   * such strings than the categories the run knows of hold.
   */
  #noteListedOwn(exchange: Exchange): void {
    const response = exchange.response;
    if (exchange.request.method !== 'GET' || exchange.credential !== 'valid' || response?.status !== 200) return;
    if (this.#ownStrings(response.body) <= this.#ownStringsKnown) return;
    const parsed = parseJson(response.body);
    if (!parsed.ok || !Array.isArray(parsed.json.tree)) return;
    const prefix = `pcs-${this.settings.runId} `;
    for (const item of parsed.json.tree as unknown[]) {
      const fields = item !== null && typeof item === 'object' ? (item as Record<string, unknown>) : {};
      const name = typeof fields.name === 'string' ? fields.name : '';
      const ours = name.startsWith(prefix) || (typeof fields.description === 'string' && fields.description.startsWith(prefix));
      const id = fields.id === undefined ? undefined : (exactInteger(fields.id)?.toString() ?? lexemeOf(fields.id));
      if (!ours || id === undefined || this.#createdIds.has(id) || this.#listedOwn.has(id)) continue;
      this.#listedOwn.set(id, { id, name, checkId: exchange.checkId, unannounced: true });
      this.#ownStringsKnown += this.#ownStrings(JSON.stringify(item));
    }
  }

  /** How many JSON strings in `text` start with this run's prefix, `"pcs-<runId> `. */
  #ownStrings(text: string): number {
    this.#ownPattern ??= new RegExp(`"pcs-${escapeStringRegexp(this.settings.runId)} `, 'g');
    return text.match(this.#ownPattern)?.length ?? 0;
  }

  /**
   * The categories of this run's that lists found by `checkId` showed and no create's answer
   * told of (a refused create the server stored all the same, a create whose answer was
   * lost): reported with that check's, so an auditor can remove what the run wrote. Asked
   * as the check ends; one whose 201 arrives later is dropped from the report then
   * (runner/collector.ts).
   */
  storedUnannounced(checkId: string): CreatedCategory[] {
    return [...this.#listedOwn.values()].filter((category) => category.checkId === checkId && !this.#createdIds.has(category.id));
  }

  /**
   * Says that the check `checkId` judges the run's first look at the target (registration
   * time): from then on, no request that may write goes out before that look.
   */
  takeFirstLook(checkId: string): void {
    this.#firstLook = { checkId };
  }

  /**
   * The run's first look at the target: one authorized `GET /categories`, sent once, on
   * behalf of the check that judges it, before any request that may write (a store that
   * starts empty is seen empty). Whichever comes first sends it: that check, or the run's
   * first write, so no order of the concurrent checks can deadlock or skip it.
   * @returns when the look has settled (answered or failed: its check judges which);
   *   undefined when no check takes a first look (not selected, read-only).
   */
  firstLook(): Promise<void> | undefined {
    const look = this.#firstLook;
    if (!look) return undefined;
    if (!look.settled) {
      look.result = (async () => {
        const attempts: Exchange[] = [];
        try {
          return { exchange: await this.client.send({ method: 'GET', path: '/categories', credential: this.valid }, look.checkId, (attempt) => attempts.push(withBodyCapped(attempt))), attempts };
        } catch (error) {
          // Its attempts are its check's record all the same (one abandoned as its route hung).
          return { error, attempts };
        }
      })();
      look.settled = look.result.then(() => {});
    }
    return look.settled;
  }

  /**
   * The first look's answer, handed once to the check that judges it; the run keeps no
   * reference after (a list of 16 MiB parses to hundreds of MB).
   * @throws Error when claimed twice.
   */
  async claimFirstLook(): Promise<FirstLook> {
    await this.firstLook();
    const result = this.#firstLook?.result;
    if (!result) throw new Error('the first look is claimed once, by the check that takes it');
    this.#firstLook!.result = undefined;
    return result;
  }

  /**
   * Calls `observer` with every attempt of every request from now on, superseded ones
   * included, in completion order (the invariants judge them as they arrive).
   */
  observe(observer: (exchange: Exchange) => void): void {
    this.#observers.push(observer);
  }

  /** Closes the state's connections and stops listening for a stop. */
  async close(): Promise<void> {
    this.#stopListening();
    this.#progress?.close();
    this.#observers.length = 0;
    await this.client.close();
  }
}

/**
 * The run's first look at the target: the answering exchange, or what the client threw
 * for it (a stopped run, a hung route); and every attempt (capped) for the record.
 */
export type FirstLook = { exchange: Exchange; attempts: Exchange[] } | { error: unknown; attempts: Exchange[] };

/**
 * Ends a target's state once its checks are done (the suite file's afterAll): its
 * connections close and what it recorded is let go, so a lane of many targets holds one
 * target's state at a time.
 */
export async function releaseRun(settings: RunSettings): Promise<void> {
  const state = states.get(settings.runId);
  states.delete(settings.runId);
  await state?.close();
  released.pace();
}

/** V8 collects lazily: the garbage of the lane's finished targets is collected as it grows. */
const released = new HeapPacer();

/** The state of every target of the worker's run, by run id. */
const states = new Map<string, RunState>();
/** The target whose checks are being registered (a class module's `register` under way). */
let registering: RunSettings | undefined;

/**
 * Registers checks for one target: `register` (a class module's default export) runs with
 * `settings` as the target that {@link runState} and `check()` see. The suite file calls it
 * once per class and target (the runner provides every target of the run as `runs`).
 */
export function registerFor(settings: RunSettings, register: () => void): void {
  registering = settings;
  try {
    register();
  } finally {
    registering = undefined;
  }
}

/**
 * The state of the target whose checks are being registered, created on first use. Read
 * it while registering, never from a check's body (which runs later, after every target
 * has registered): a check keeps the state it was registered with.
 * @throws Error outside a registration.
 */
export function runState(): RunState {
  if (!registering) throw new Error('runState() is read while a class module registers its checks (registerFor)');
  let state = states.get(registering.runId);
  if (!state) states.set(registering.runId, (state = new RunState(registering)));
  return state;
}

/**
 * The category an exchange wrote, by the target's own account (a 2xx answer to POST),
 * whichever check made it: there is no delete operation (spec 4), so every write must be
 * accounted for, even one whose id is malformed or missing (then the name sent is shown).
 */
function createdCategory(exchange: Exchange): CreatedCategory | undefined {
  const response = exchange.response;
  if (exchange.request.method !== 'POST' || exchange.superseded || !response || response.status < 200 || response.status > 299) return;
  const returned = objectOf(response.body);
  const idNode = returned?.tree.id;
  const name = returned?.value.name ?? objectOf(exchange.request.body ?? '')?.value.name;
  return {
    id: idNode === undefined ? 'unknown' : (exactInteger(idNode)?.toString() ?? lexemeOf(idNode)),
    name: typeof name === 'string' ? name : jsonText(name ?? null),
    checkId: exchange.checkId,
  };
}

/** A JSON object body in both views, or undefined when the text is not one. */
function objectOf(text: string): { tree: Record<string, unknown>; value: Record<string, unknown> } | undefined {
  const parsed = parseJson(text);
  if (!parsed.ok || parsed.json.value === null || typeof parsed.json.value !== 'object' || Array.isArray(parsed.json.value)) return;
  return { tree: parsed.json.tree as Record<string, unknown>, value: parsed.json.value as Record<string, unknown> };
}
