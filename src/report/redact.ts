import type { Exchange, RecordedRequest, RecordedResponse } from '../core/exchange.js';
import type { FailureRecord } from '../check/types.js';
import type { Redactor } from '../secrets/redactor.js';
import type { Report } from './model.js';

/**
 * Redaction at output. Judgements see every exchange as received; the secrets are
 * replaced only here, value by value, in the copy each writer renders: a header value, a
 * body, a message, a counterexample. What the tool wrote itself (check ids, titles,
 * clauses, verdicts, field and header names) is never redacted, so a key such as `name`,
 * `test` or `true` neither changes a verdict nor breaks a file nor renames a JUnit
 * testcase. Each writer then escapes the values for its own format.
 */

/** A copy of the report with every value that came from a request or a response redacted. */
export function redactReport(report: Report, redactor: Redactor): Report {
  const text = (value: string | undefined) => (value === undefined ? undefined : redactor.text(value));
  return {
    ...report,
    verdictReason: redactor.text(report.verdictReason),
    findings: report.findings.map((finding) => ({
      ...finding,
      summary: redactor.text(finding.summary),
      ...(finding.found !== undefined ? { found: redactor.text(finding.found) } : {}),
      ...(finding.expected ? { expected: redactor.value(finding.expected) } : {}),
    })),
    checks: report.checks.map((check) => ({
      ...check,
      ...(check.reason !== undefined ? { reason: text(check.reason) } : {}),
      ...(check.failure ? { failure: redactFailure(check.failure, redactor) } : {}),
      ...(check.property ? { property: redactor.value(check.property) } : {}),
      ...(check.observations ? { observations: redactor.value(check.observations) } : {}),
    })),
    requirements: report.requirements.map((requirement) => ({
      ...requirement,
      checks: requirement.checks.map((check) => ({ ...check, ...(check.reason !== undefined ? { reason: text(check.reason) } : {}) })),
    })),
    created: report.created.map((category) => ({ ...category, id: redactor.text(category.id), name: redactor.text(category.name) })),
    ...(report.preflight ? { preflight: redactExchangeParts(report.preflight, redactor) } : {}),
    runErrors: redactor.value(report.runErrors),
  };
}

/** A copy of an exchange with its request, response and error redacted (ids, times and names kept). */
export function redactExchange(exchange: Exchange, redactor: Redactor): Exchange {
  return { ...exchange, ...redactExchangeParts(exchange, redactor) };
}

function redactFailure(failure: FailureRecord, redactor: Redactor): FailureRecord {
  return {
    ...failure,
    ...redactExchangeParts(failure, redactor),
    message: redactor.text(failure.message),
    ...(failure.expected !== undefined ? { expected: redactor.text(failure.expected) } : {}),
    ...(failure.found !== undefined ? { found: redactor.text(failure.found) } : {}),
    ...(failure.curl !== undefined ? { curl: redactor.text(failure.curl) } : {}),
  };
}

/** The request, response and error of anything that carries them, redacted. */
function redactExchangeParts<T extends { request: RecordedRequest; response?: RecordedResponse; error?: Exchange['error'] }>(parts: T, redactor: Redactor): T {
  return {
    ...parts,
    request: { ...parts.request, url: redactor.text(parts.request.url), headers: redactor.value(parts.request.headers), ...(parts.request.body !== undefined ? { body: redactor.body(parts.request.body) } : {}) },
    ...(parts.response ? { response: { ...parts.response, headers: redactHeaders(parts.response.headers, redactor), body: redactor.responseBody(parts.response.body) } } : {}),
    ...(parts.error ? { error: { ...parts.error, message: redactor.text(parts.error.message) } } : {}),
  };
}

/** Response headers, each value redacted with its pieces (see Redactor.header). */
function redactHeaders(headers: Record<string, string>, redactor: Redactor): Record<string, string> {
  return Object.fromEntries(Object.entries(headers).map(([name, value]) => [name, redactor.header(value)]));
}
