import type { Exchange } from '../core/exchange.js';
import type { Redactor } from '../secrets/redactor.js';
import type { Report } from './model.js';

/**
 * Redaction at output, by default. Judgements see every exchange as received; the secrets
 * are replaced only here, in the copy each writer renders. Every string of a report or an
 * exchange passes through the redactor (a new field, a notice, a traffic summary
 * included), except the fields the tool writes itself and declares safe in
 * {@link SAFE_FIELDS}: check ids, titles, clauses, levels, statuses, verdicts. So a key
 * such as `name`, `test` or `true` neither changes a verdict nor breaks a file nor renames
 * a JUnit testcase, and no field the tool adds tomorrow goes out raw. Member names are the
 * tool's own (header names included) and never redacted. Each writer then escapes the
 * values for its own format.
 */

/**
 * The fields the tool writes itself, by path from the report's root (`*` for each item of
 * an array): the only strings that are not redacted. Every enumerated field of
 * schemas/report.schema.json is among them (test/unit/redaction-default.test.ts).
 */
export const SAFE_FIELDS: ReadonlySet<string> = new Set([
  'reportVersion',
  'tool.name',
  'tool.version',
  'spec.title',
  'spec.version',
  'verdict',
  'headline',
  'startedAt',
  'target.kind',
  'target.proxy.variable',
  'settings.profile',
  'settings.profileSource',
  'settings.runId',
  'settings.formats.*',
  'settings.minMustChecks',
  'checks.*.id',
  'checks.*.title',
  'checks.*.clause',
  'checks.*.level',
  'checks.*.status',
  'checks.*.reference',
  'checks.*.requirements.*',
  'checks.*.needs.*',
  'checks.*.failure.checkId',
  'requirements.*.id',
  'requirements.*.clause',
  'requirements.*.level',
  'requirements.*.outcome',
  'requirements.*.quote',
  'requirements.*.interpretation',
  'requirements.*.inapplicable',
  'requirements.*.checks.*.id',
  'requirements.*.checks.*.level',
  'requirements.*.checks.*.status',
  'outOfScope.*.clause',
  'outOfScope.*.what',
  'findings.*.id',
  'findings.*.checks.*',
  'findings.*.request.method',
  'created.*.checkId',
  'gate.known.*',
  'gate.new.*',
  'gate.stale.*',
  'gate.expired.*.check',
  'gate.expired.*.expires',
]);

/**
 * The fields that hold the user's own values (the base URL without its credentials, file
 * paths, patterns, headers given): redacted of whole secrets only (Redactor.own), so that
 * eight characters a key shares with a path do not turn the path into nonsense.
 */
export const USER_FIELDS: ReadonlySet<string> = new Set([
  'tool.command',
  'target.baseUrl',
  'target.proxy.url',
  'settings.knownFailures',
  'settings.traffic.*',
  'settings.checkFilter',
  'settings.headers.*',
  'settings.apiKeyEnv',
  'traffic.files.*',
]);

/** Fields of an exchange (and of anything that carries one) that the tool writes itself. */
const SAFE_EXCHANGE_FIELDS: ReadonlySet<string> = new Set(['checkId', 'credential', 'startedAt', 'connection', 'request.method', 'error.code', 'superseded']);

/** A copy of the report with every string not declared safe redacted. */
export function redactReport(report: Report, redactor: Redactor): Report {
  return redacted(report, '', SAFE_FIELDS, redactor) as Report;
}

/** A copy of an exchange with every string but its ids, times and method redacted. */
export function redactExchange(exchange: Exchange, redactor: Redactor): Exchange {
  return redacted(exchange, '', SAFE_EXCHANGE_FIELDS, redactor) as Exchange;
}

/** The value at `path` redacted: safe fields kept, bodies and response headers by their own rules, every other string as text. */
function redacted(value: unknown, path: string, safe: ReadonlySet<string>, redactor: Redactor): unknown {
  if (typeof value === 'string') return safe.has(path) ? value : redactString(value, path, redactor);
  if (Array.isArray(value)) return value.map((item) => redacted(item, `${path}.*`.replace(/^\./, ''), safe, redactor));
  if (value === null || typeof value !== 'object') return value;
  return Object.fromEntries(Object.entries(value).map(([name, child]) => [name, redacted(child, path === '' ? name : `${path}.${name}`, safe, redactor)]));
}

/** A string that came from outside: a body keeps its JSON (Redactor.body), a response header loses every piece of a secret (Redactor.header). */
function redactString(value: string, path: string, redactor: Redactor): string {
  if (USER_FIELDS.has(path)) return redactor.own(value);
  if (path === 'request.body' || path.endsWith('.request.body')) return redactor.body(value);
  if (path === 'response.body' || path.endsWith('.response.body')) return redactor.responseBody(value);
  if (/(?:^|\.)response\.headers\.[^.]+$/.test(path)) return redactor.header(value);
  return redactor.text(value);
}
