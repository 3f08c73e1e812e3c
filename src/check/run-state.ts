import { inject } from 'vitest';
import type { RunSettings } from '../config/settings.js';
import { HttpClient } from '../http/client.js';
import { validCredential, type Credential } from '../http/credential.js';
import type { Exchange } from '../http/exchange.js';
import { KEY_PLACEHOLDER, Redactor } from '../secrets/redactor.js';
import { exactInteger, lexemeOf, parseJson } from '../json/lossless.js';
import { invalidCredentials, type InvalidCredential } from './credentials.js';
import type { CheckLevel, CreatedCategory } from './types.js';

/**
 * The state one run shares across all its checks inside the vitest worker (the suite runs
 * in a single worker without isolation, so every suite file sees this one instance):
 * the client, the redactor, every exchange made so far, and the credentials.
 */
export class RunState {
  readonly settings: RunSettings;
  readonly redactor: Redactor;
  readonly client: HttpClient;
  /** Every exchange of the run, in completion order: the invariants of section 7 read it. */
  readonly exchanges: Exchange[] = [];
  readonly valid: Credential;
  readonly invalid: InvalidCredential[];
  /** The level of every check that has started, by id: invariants weigh exchanges by it. */
  readonly levels = new Map<string, CheckLevel>();
  /** Categories the target reported as created so far, in completion order. */
  readonly created: CreatedCategory[] = [];

  constructor(settings: RunSettings) {
    this.settings = settings;
    this.redactor = new Redactor().add(settings.apiKey, KEY_PLACEHOLDER);
    this.valid = validCredential(settings.apiKey);
    this.invalid = invalidCredentials(settings.apiKey, this.redactor, settings.seed);
    this.client = new HttpClient({
      baseUrl: settings.baseUrl,
      timeoutMs: settings.timeoutMs,
      maxResponseBytes: settings.maxResponseBytes,
      connections: settings.connections,
      redactor: this.redactor,
      userAgent: settings.userAgent,
      onExchange: (exchange) => {
        this.exchanges.push(exchange);
        const category = createdCategory(exchange);
        if (category) this.created.push(category);
      },
    });
  }
}

let current: RunState | undefined;

/** The run's state, created on first use from the settings the runner provided. */
export function runState(): RunState {
  current ??= new RunState(inject('run'));
  return current;
}

/**
 * The category a target reports as created by an exchange (a 2xx answer to POST with a
 * JSON object), whichever check made it: there is no delete operation (spec 4), so every
 * write must be accounted for, even one whose id is malformed.
 */
function createdCategory(exchange: Exchange): CreatedCategory | undefined {
  const response = exchange.response;
  if (exchange.request.method !== 'POST' || !response || response.status < 200 || response.status > 299) return;
  const parsed = parseJson(response.body);
  const value = parsed.ok ? parsed.json.value : undefined;
  if (value === null || typeof value !== 'object' || Array.isArray(value)) return;
  const idNode = (parsed.ok ? (parsed.json.tree as { id?: unknown }) : {}).id;
  const name = (value as { name?: unknown }).name;
  return {
    id: exactInteger(idNode)?.toString() ?? lexemeOf(idNode),
    name: typeof name === 'string' ? name : JSON.stringify(name),
    checkId: exchange.checkId,
  };
}
