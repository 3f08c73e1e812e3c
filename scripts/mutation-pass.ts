/**
 * `npm run mutations`: a quick mutation pass over the judgements and the rules around
 * them (redaction, renderers, credentials, the verdict policy, fleet and merge). Each
 * mutation loosens or breaks one condition in the sources, runs the tests that must notice
 * it (test/judgements by default, milliseconds each), and restores the file. A mutation the tests do not
 * notice "survives": a condition no test pins down. Prints a table; exits 1 when one
 * survives. (Stryker does this exhaustively; this pass keeps the conditions that decide
 * verdicts honest at a glance.)
 */
import { execFile } from 'node:child_process';
import { readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { parseArgs, promisify } from 'node:util';
import { packageRoot } from '../src/core/package-info.js';

interface Mutation {
  file: string;
  /** What the mutation does to the rule, in words. */
  what: string;
  from: string;
  to: string;
  /** The test files that must notice it (default: test/judgements, milliseconds each). */
  tests?: string[];
}

const MUTATIONS: Mutation[] = [
  { file: 'src/judgements/create.ts', what: 'create-ignores-client-id accepts any 4xx, not only 400', from: 'status === 400) return;', to: 'status >= 400) return;' },
  { file: 'src/judgements/create.ts', what: 'create-same-name-twice accepts one id for both', from: 'first.id !== second.id', to: 'true' },
  { file: 'src/judgements/invariants.ts', what: 'unauthorized-has-challenge accepts any scheme', from: '\\s*bearer\\b/i', to: '\\s*\\w+\\b/i' },
  { file: 'src/judgements/invariants.ts', what: 'no-server-error misses a 500', from: 'response.status >= 500 ?', to: 'response.status > 500 ?' },
  { file: 'src/judgements/invariants.ts', what: 'no-server-error judges routes whose status codes are not shown', from: "applies: (_response, exchange) => onOperationPath(exchange.request.url),", to: 'applies: () => true,' },
  { file: 'src/judgements/invariants.ts', what: 'invariants judge superseded attempts (a 429 sent again)', from: 'if (response && !exchange.superseded) {', to: 'if (response) {' },
  { file: 'src/judgements/invariants.ts', what: 'no-server-error ignores info probes', from: '!invariant.everyLevel && ', to: '' },
  { file: 'src/judgements/invariants.ts', what: 'error-status-matches-http compares loosely', from: '=== BigInt(response.status)', to: '!== undefined' },
  { file: 'src/judgements/list.ts', what: 'list-ids-unique accepts a repeated id', from: 'if (first !== undefined) expectThat(false,', to: 'if (false) expectThat(false,' },
  { file: 'src/judgements/edge-cases.ts', what: 'edge cases accept any 4xx refusal', from: 'if (status === 400 ||', to: 'if (status >= 400 ||' },
  { file: 'src/check/expect.ts', what: 'the exact name is compared after trimming', from: 'if (found.name !== fields.name) {', to: 'if (found.name.trim() !== fields.name.trim()) {' },
  { file: 'src/check/expect.ts', what: 'an id past int64 is accepted', from: 'if (!isInt64(id)) {', to: 'if (false) {' },
  { file: 'src/check/expect.ts', what: 'expectStatus accepts any status of the same class', from: 'if (response.status !== expected) {', to: 'if (Math.floor(response.status / 100) !== Math.floor(expected / 100)) {' },
  { file: 'src/check/refusal.ts', what: 'a tab counts as a control that may be refused', from: '[\\u0001-\\u0008\\u000b', to: '[\\u0001-\\u0009\\u000b' },
  { file: 'src/check/length-limit.ts', what: 'a limit below 64 characters passes as a limit', from: "if ((await probe(EVERYDAY_LENGTH)) === 'refused') return { everyday: true };", to: '' },
  { file: 'src/check/length-limit.ts', what: 'one byte counts as one character', from: "['UTF-8 bytes', (text) => Buffer.byteLength(text)]", to: "['UTF-8 bytes', (text) => text.length]" },
  // Beyond the judgements (issue 23): secrets, renderers, credentials, policy, fleet and merge,
  // each with the fast tests that must notice it.
  { file: 'src/secrets/redactor.ts', what: 'a key of 4 characters is redacted inside text, shredding evidence', from: 'if (secret.length >= SUBSTRING_SECRET_CHARS) return true;', to: 'if (secret.length >= 4) return true;', tests: ['test/unit/secrets.test.ts'] },
  { file: 'src/secrets/redactor.ts', what: 'a short key is redacted where it names a JSON member', from: '|(${strings})(?!\\\\s*:)`', to: '|(${strings})`', tests: ['test/unit/secrets.test.ts'] },
  { file: 'src/secrets/pieces.ts', what: 'a preview keeps pieces of up to 11 characters of the key', from: 'export const PIECE_CHARS = 8;', to: 'export const PIECE_CHARS = 12;', tests: ['test/unit/secrets.test.ts'] },
  { file: 'src/arbitraries/invalid-credential.ts', what: 'the shown last-character-removed credential drops two characters', from: "i === key.length - 1 ? `\\${${K}%?}` : `${slice(0, i)}${slice(i + 1)}`", to: "i === key.length - 1 ? `\\${${K}%??}` : `${slice(0, i)}${slice(i + 1)}`", tests: ['test/unit/secrets.test.ts'] },
  { file: 'src/report/junit.ts', what: 'junit.xml counts errors as failures in <testsuites>', from: "    failures: String(count(checks, isFailure)),\n    errors: String(count(checks, isError) + extraErrors),", to: "    failures: String(count(checks, isError)),\n    errors: String(count(checks, isError) + extraErrors),", tests: ['test/unit/renderers.test.ts'] },
  { file: 'src/report/junit.ts', what: 'junit.xml drops characters XML forbids instead of escaping them', from: "invalidCharReplacement: escaped }", to: "invalidCharReplacement: '' }", tests: ['test/unit/renderers.test.ts'] },
  { file: 'src/report/html.ts', what: 'report.html writes control characters as references (HTML parse errors)', from: 'escapeUTF8(visible(String(text))', to: 'escapeUTF8((String(text))', tests: ['test/unit/renderers.test.ts', 'test/unit/writers-redaction.test.ts'] },
  { file: 'src/report/verdict.ts', what: '--strict no longer counts should failures', from: "return check.level === 'must' || (strict && check.level === 'should');", to: "return check.level === 'must';", tests: ['test/unit/renderers.test.ts'] },
  { file: 'src/report/findings.ts', what: '"blocked by" matches any finding on the path, whatever its method', from: 'return finding.request?.method === method && finding.request.path.endsWith(path);', to: 'return finding.request?.path.endsWith(path) === true;', tests: ['test/unit/findings.test.ts'] },
  { file: 'src/config/replay.ts', what: 'replays state every setting at its default', from: 'if (!ALWAYS.includes(name) && JSON.stringify(value) === JSON.stringify(fallback)) continue;', to: '', tests: ['test/unit/replay.test.ts'] },
  { file: 'src/runner/fleet.ts', what: 'a fleet target named .. writes outside the report folder', from: "if (name === '' || name === '.' || name === '..')", to: "if (name === '' || name === '.')", tests: ['test/unit/merge.test.ts'] },
  { file: 'src/runner/merge.ts', what: 'merge trusts the exit code a part claims', from: 'fleetTarget(target.name, report, exitCodeOf(report.verdict, report.gate), null)', to: 'fleetTarget(target.name, report, target.exitCode, null)', tests: ['test/unit/merge.test.ts'] },
  { file: 'src/runner/merge.ts', what: 'merge reads a report of any version', from: '!/^1\\.\\d+$/.test(version)', to: '!/^\\d+\\.\\d+$/.test(version)', tests: ['test/unit/merge.test.ts'] },
  { file: 'src/judgements/deprecation.ts', what: 'a Sunset in another zone than GMT passes', from: "\\\\d{4} \\\\d{2}:\\\\d{2}:\\\\d{2} GMT$',", to: "\\\\d{4} \\\\d{2}:\\\\d{2}:\\\\d{2} (GMT|UTC)$',", tests: ['test/judgements/auth-and-scope.test.ts'] },
  { file: 'src/judgements/auth.ts', what: 'error="invalid_token" is found inside another parameter', from: '/(^|[\\s,])error\\s*=', to: '/error\\s*=', tests: ['test/judgements/auth-and-scope.test.ts'] },
  { file: 'src/config/read-input.ts', what: 'a device file is read as a key', from: 'if (!stats.isFile())', to: 'if (stats.isDirectory())', tests: ['test/unit/config.test.ts'] },
  { file: 'src/runner/collector.ts', what: 'a check reported twice loses its exchanges', from: 'const exchanges = this.#exchanges.get(meta.id) ?? meta.exchanges;', to: 'const exchanges = meta.exchanges;', tests: ['test/unit/runner.test.ts'] },
  // Issues 24 and 25: judging traffic, headlines a gate can trust.
  { file: 'src/traffic/judge.ts', what: 'a list is held to a create that overlapped it', from: 'if (exact && endMs < list.startMs) before.push(', to: 'if (exact) before.push(', tests: ['test/traffic/judge.test.ts'] },
  { file: 'src/traffic/judge.ts', what: 'a 429 to wait out is judged as an answer', from: '|| exchange.superseded || waitedOut(exchange.response)) {', to: '|| exchange.superseded) {', tests: ['test/traffic/judge.test.ts'] },
  { file: 'src/traffic/credentials.ts', what: "another client's key is called invalid", from: "return known.everyOtherInvalid ? 'unknown-key' : 'unverified';", to: "return 'unknown-key';", tests: ['test/traffic/judge.test.ts'] },
  { file: 'src/traffic/capture.ts', what: 'a body cut short in the capture is judged as the server sent it', from: '&& decoded.bytes < length && !isCoded(contentEncoding)', to: '&& decoded.bytes < 0 && !isCoded(contentEncoding)', tests: ['test/traffic/judge.test.ts'] },
  // Issue 31: one premise per judgement, transport features at their own level, the key in Authorization alone.
  { file: 'src/traffic/judge.ts', what: 'a captured request outside a check\'s premise is held to its rule', from: 'if (!premiseOf(checkId).holds(exchange.request, exchange.response?.status)) return undefined;', to: '', tests: ['test/traffic/judge.test.ts'] },
  { file: 'src/check/premises.ts', what: 'a body of the largest size sent is outside the interface', from: 'if (bytes > LARGEST_BODY_BYTES)', to: 'if (bytes >= LARGEST_BODY_BYTES)', tests: ['test/judgements/transport.test.ts', 'test/traffic/judge.test.ts'] },
  { file: 'src/check/premises.ts', what: 'a 415 to a form post is held to the Error shape', from: "holds: (request, status) => isInterfaceRequest(request, status) || (status !== undefined && INTERFACE_ERROR_STATUSES.includes(status) && variationOf(request)?.id !== 'path-spelling'),", to: 'holds: () => true,', tests: ['test/judgements/transport.test.ts'] },
  { file: 'src/judgements/transport.ts', what: 'a chunked body refused with 400 passes as the honest refusal', from: 'response.status !== 400,', to: 'true,', tests: ['test/judgements/transport.test.ts'] },
  { file: 'src/judgements/transport.ts', what: 'a chunked body is sent to an HTTP/1.0 server', from: "return peerVersion === 'HTTP/1.0'", to: "return peerVersion === 'HTTP/0.9'", tests: ['test/judgements/transport.test.ts'] },
  { file: 'src/judgements/auth.ts', what: 'a 403 to the key outside Authorization passes', from: 'expectThat(status === 401, `Expected 401 to a request carrying', to: 'expectThat(status >= 400, `Expected 401 to a request carrying', tests: ['test/judgements/auth-and-scope.test.ts'] },
  // Issue 32: what real recorders write, and verdicts on part of the interface.
  { file: 'src/traffic/capture.ts', what: 'a size larger than a text that parses whole drops the body (chrome-har)', from: ' && !isCoded(contentEncoding) && !parseJson(decoded.text).ok) {', to: ' && !isCoded(contentEncoding)) {', tests: ['test/traffic/judge.test.ts'] },
  { file: 'src/traffic/capture.ts', what: 'a compressed size drops the decoded body (mitmproxy)', from: ' && !isCoded(contentEncoding) && !parseJson(decoded.text).ok) {', to: ' && !parseJson(decoded.text).ok) {', tests: ['test/traffic/judge.test.ts', 'test/traffic/recorders.test.ts'] },
  { file: 'src/traffic/capture.ts', what: 'params with a repeated name are rebuilt as if unique', from: "new Set(names).size !== names.length || indexes", to: 'indexes', tests: ['test/traffic/judge.test.ts'] },
  { file: 'src/report/verdict.ts', what: 'a partial conformant verdict shows green', from: "report.verdict === 'conformant' && report.coverage.untested > 0 ? 'partial'", to: "report.verdict === 'conformant' && report.coverage.untested > 1 ? 'partial'", tests: ['test/unit/renderers.test.ts'] },
  { file: 'src/report/verdict.ts', what: '--min-must-checks lets one fewer through', from: 'if (ran.length >= minimum) return undefined;', to: 'if (ran.length >= minimum - 1) return undefined;', tests: ['test/unit/renderers.test.ts'] },
  { file: 'src/check/refusal.ts', what: 'DEL is a C0 control again (a validator of C0 alone reads as inconsistent)', from: "/[\\u0001-\\u0008\\u000b\\u000c\\u000e-\\u001f]/.test(text), words: 'holding a C0", to: "/[\\u0001-\\u0008\\u000b\\u000c\\u000e-\\u001f\\u007f]/.test(text), words: 'holding a C0", tests: ['test/judgements/others.test.ts'] },
  { file: 'src/config/known-failures.ts', what: 'a known failure naming no check is accepted', from: 'entries.findIndex((entry) => !known.has(entry.check));', to: 'entries.findIndex(() => false);', tests: ['test/suite/gate.test.ts'] },
  { file: 'src/report/verdict.ts', what: 'a partial run headlines a plain pass', from: 'if (coverage.untested === 0) return `${self}${shown}`;', to: 'return `${self}${shown}`;', tests: ['test/unit/renderers.test.ts', 'test/traffic/run-traffic.test.ts'] },
  { file: 'src/report/markdown.ts', what: 'summary.md passes server control characters through', from: "value: visible(String(value)).replace(", to: "value: String(value).replace(", tests: ['test/unit/renderers.test.ts'] },
  { file: 'src/http/safety.ts', what: 'a refused key is never taken as refused: all 220 requests go out', from: 'if (refusals.count + 1 >= KEY_REFUSED_AFTER) this.guard.stop(', to: 'if (refusals.count + 1 >= 10_000) this.guard.stop(', tests: ['test/suite/verdicts.test.ts'] },
  { file: 'src/runner/collector.ts', what: 'a check passes without its recorded evidence', from: "if (test.state === 'passed' && meta.recorded !== undefined && requests < meta.recorded) {", to: 'if (false) {', tests: ['test/unit/runner.test.ts'] },
  // Issue 34: the survivors of a fresh sample, each now pinned by a near miss.
  { file: 'src/traffic/credentials.ts', what: 'Proxy-Authorization is no capture secret', from: "if (field === 'authorization' || field === 'proxy-authorization') {", to: "if (field === 'authorization') {", tests: ['test/unit/near-misses.test.ts'] },
  { file: 'src/report/redact.ts', what: 'request URLs are written unredacted', from: "  'checks.*.failure.checkId',\n", to: "  'checks.*.failure.checkId',\n  'checks.*.failure.request.url',\n", tests: ['test/unit/writers-redaction.test.ts'] },
  { file: 'src/traffic/judge.ts', what: 'a 413 to a valid create in a capture is a finding', from: '(status === 413 || extra || mayBeRefused(fields))', to: '(extra || mayBeRefused(fields))', tests: ['test/traffic/judge.test.ts'] },
  { file: 'src/traffic/capture.ts', what: 'a header field sent twice keeps only its last value', from: 'headers[key] = headers[key] === undefined ? text : `${headers[key]}, ${text}`;', to: 'headers[key] = text;', tests: ['test/unit/near-misses.test.ts'] },
  { file: 'src/http/retry-policy.ts', what: 'every 503 is waited out, with or without Retry-After', from: 'if (response.status === 503 && retryAfter !== undefined) return { waitMs: retryAfter, tooMany: false };', to: 'if (response.status === 503) return { waitMs: retryAfter ?? DEFAULT_REFUSAL_WAIT_MS, tooMany: false };', tests: ['test/unit/near-misses.test.ts'] },
  { file: 'src/http/retry-policy.ts', what: 'a POST that failed before any response is sent again unasked', from: "['GET', 'HEAD', 'OPTIONS', 'PUT', 'DELETE'].includes", to: "['GET', 'HEAD', 'OPTIONS', 'PUT', 'DELETE', 'POST'].includes", tests: ['test/unit/adaptive-pace.test.ts'] },
  { file: 'src/report/redact.ts', what: 'a field outside the safe list (the traffic summary) goes out raw', from: "return safe.has(path) ? value : redactString(value, path, redactor);", to: "return safe.has(path) || path.startsWith('traffic') ? value : redactString(value, path, redactor);", tests: ['test/unit/redaction-default.test.ts'] },
  { file: 'src/report/redact.ts', what: 'a safe field (a check status) is redacted, renaming it', from: "  'checks.*.status',\n", to: '', tests: ['test/unit/redaction-default.test.ts'] },
  { file: 'src/traffic/judge.ts', what: 'a rule judged under an unknown check id drops out of the report', from: 'if (!definition) throw new Error(', to: 'if (!definition) return undefined; if (Math.random() < 0) throw new Error(', tests: ['test/unit/near-misses.test.ts'] },
  { file: 'src/traffic/join.ts', what: "the capture's failure replaces the active one (its replay lost)", from: "...(check.status !== 'failed' && passive.failure ? { failure: passive.failure } : {})", to: '...(passive.failure ? { failure: passive.failure } : {})', tests: ['test/unit/near-misses.test.ts'] },
  { file: 'src/http/client-form.ts', what: 'isBaselineForm ignores framing', from: ' && form.framing === BASELINE_FORM.framing;', to: ';', tests: ['test/unit/near-misses.test.ts'] },
  { file: 'src/report/verdict.ts', what: 'an errored should or info check makes a conformant run error', from: "const errored = must.filter((check) => check.status === 'error');", to: "const errored = checks.filter((check) => check.status === 'error');", tests: ['test/unit/near-misses.test.ts'] },
  { file: 'src/report/gate.ts', what: 'a known failure expires on its own expiry day', from: 'const expired = entries.filter((entry) => entry.expires < today);\n  const active = new Set(entries.filter((entry) => entry.expires >= today)', to: 'const expired = entries.filter((entry) => entry.expires <= today);\n  const active = new Set(entries.filter((entry) => entry.expires > today)', tests: ['test/unit/near-misses.test.ts'] },
  { file: 'src/core/tool-failure.ts', what: 'an exhausted resource carried as a cause is no tool failure', from: 'depth < 4; cause =', to: 'depth < 1; cause =', tests: ['test/unit/near-misses.test.ts'] },
  { file: 'src/traffic/credentials.ts', what: 'any prefix of the key is the key with its last character removed', from: "if (key.length === token.length + 1 && key.startsWith(token)) return 'key-char-removed';", to: "if (key.startsWith(token)) return 'key-char-removed';", tests: ['test/unit/near-misses.test.ts'] },
  // Issue 34's fresh sample (scripts/mutation-samples/2026-11-25.json): the survivors, each with the test written for it.
  {"file": "src/secrets/pieces.ts", "what": "pieces that touch are not merged", "from": "if (last && last.end >= start) last.end = end;", "to": "if (last && last.end > start) last.end = end;", "tests": ["test/unit/secrets.test.ts"]},
  {"file": "src/secrets/pieces.ts", "what": "a piece may take a backslash with it", "from": "if (/[\"\\\\]/.test(window)) continue;", "to": "if (/[\"]/.test(window)) continue;", "tests": ["test/unit/secrets.test.ts"]},
  {"file": "src/traffic/bounded-tokens.ts", "what": "a string of exactly the bound is cut", "from": "const value = chars > bounds.valueChars ? undefined", "to": "const value = chars >= bounds.valueChars ? undefined", "tests": ["test/traffic/judge.test.ts"]},
  {"file": "src/report/verdict.ts", "what": "--accept-truncated is ignored", "from": "if (cut.length === 0 || accepted) return undefined;", "to": "if (cut.length === 0) return undefined;", "tests": ["test/unit/near-misses.test.ts"]},
  {"file": "src/http/retry-policy.ts", "what": "a Retry-After date in the past waits a negative time", "from": "Math.max(0, date - now)", "to": "date - now", "tests": ["test/unit/adaptive-pace.test.ts"]},
  {"file": "src/traffic/judge.ts", "what": "101 invalid entries are listed", "from": "if (invalid.listed.length < MAX_DROPPED_LISTED)", "to": "if (invalid.listed.length <= MAX_DROPPED_LISTED)", "tests": ["test/traffic/judge.test.ts"]},
  {"file": "src/traffic/capture.ts", "what": "a body the reader cut is read as its mark", "from": "if (isCut(content?.text)) {", "to": "if (false) {", "tests": ["test/traffic/judge.test.ts"]},
  {"file": "src/traffic/credentials.ts", "what": "Api-Key is no capture secret", "from": "} else if (KEY_HEADER_NAMES.has(field)) {", "to": "} else if (field === 'x-api-key') {", "tests": ["test/unit/near-misses.test.ts"]},
  {"file": "src/traffic/capture.ts", "what": "an answer in HTTP/1.0 is told only in upper case", "from": "/^http\\/1\\.0$/i.test(", "to": "/^HTTP\\/1\\.0$/.test(", "tests": ["test/unit/near-misses.test.ts"]},
  {"file": "src/report/console.ts", "what": "the bodies not kept past the first ten are not said", "from": "if (total > lines.length) lines.push(", "to": "if (total > lines.length + 1) lines.push(", "tests": ["test/unit/redaction-default.test.ts"]},
  {"file": "src/report/redact.ts", "what": "a request body is redacted as text, breaking its JSON", "from": "if (path === 'request.body' || path.endsWith('.request.body')) return redactor.body(value);", "to": "", "tests": ["test/unit/redaction-default.test.ts"]},
  // This round: the proxy forwarded a chunked body framed by timing (a 411 policy seen in one run of three under load).
  { file: 'src/traffic/proxy.ts', what: 'a chunked body goes upstream as a stream (undici gives an ended one a Content-Length)', from: 'const body = (piped && chunked ? chunksOf(piped) : piped)', to: 'const body = (piped)', tests: ['test/traffic/proxy.test.ts'] },
  { file: 'src/report/findings.ts', what: 'root causes ordered by count alone (an info cause above a must cause)', from: '.sort((a, b) => a.rank - b.rank || b.checks.length - a.checks.length)', to: '.sort((a, b) => b.checks.length - a.checks.length)', tests: ['test/unit/findings.test.ts'] },
  // Issue 34's third fresh sample (scripts/mutation-samples/2026-11-26.json, 11 of 15 killed as written): its survivors, each with the test written for it.
  { file: 'src/report/html.ts', what: "an Error body's wrong status field shows the right HTTP status as the deviation", from: "/^status \\d{3}(?!\\d)/.test(failure.found)", to: "failure.found.includes('status')", tests: ['test/unit/renderers.test.ts'] },
  { file: 'src/runner/target-run.ts', what: '--quiet still draws the status line', from: '(options.out as { isTTY?: boolean }).isTTY && !options.quiet ? { progress: true }', to: '(options.out as { isTTY?: boolean }).isTTY ? { progress: true }', tests: ['test/unit/status-line.test.ts'] },
  { file: 'src/config/known-failures.ts', what: 'a misspelt check id sharing exactly the threshold prefix suggests nothing', from: 'sharedPrefix(id, check) >= Math.min(12, check.length - 1)', to: 'sharedPrefix(id, check) > Math.min(12, check.length - 1)', tests: ['test/unit/near-misses.test.ts'] },
  // A sample of 30 random boundary mutations (2026-11-26: 11 killed by the fast unit tests, 12 by the whole fast tier): the survivors that are no equivalent mutant, each with its near miss.
  {"file": "src/check/define.ts", "what": "a check with no observations reports an empty list", "from": "if (t.observations.length > 0) meta.observations = t.observations;", "to": "if (t.observations.length >= 0) meta.observations = t.observations;", "tests": ["test/suite/run.test.ts"]},
  {"file": "src/http/adaptive-pace.ts", "what": "a refusal of a request sent at the instant of the last decrease does not lower the rate", "from": "if (tooMany && sentAt >= this.#decreasedAt) {", "to": "if (tooMany && sentAt > this.#decreasedAt) {", "tests": ["test/unit/adaptive-pace.test.ts"]},
  {"file": "src/arbitraries/invalid-credential.ts", "what": "a key of one character gets a key-char-removed example (the empty key)", "from": "example: { name: 'key-char-removed', description: 'the valid key without its last character', parameters: (key) => (key.length > 1 ? key.length - 1 : { unavailable: 'the key has one character' }) },", "to": "example: { name: 'key-char-removed', description: 'the valid key without its last character', parameters: (key) => (key.length >= 1 ? key.length - 1 : { unavailable: 'the key has one character' }) },", "tests": ["test/unit/boundaries.test.ts"]},
  {"file": "src/config/setting-values.ts", "what": "an empty list is accepted for a list setting (--format \"\")", "from": "return Array.isArray(value) && value.length > 0 && value.every((item) => setting.choices.includes(item as string));", "to": "return Array.isArray(value) && value.length >= 0 && value.every((item) => setting.choices.includes(item as string));", "tests": ["test/unit/boundaries.test.ts"]},
  {"file": "src/report/verdict.ts", "what": "--min-must-checks with none run ends in a colon", "from": "return `only ${plural(ran.length, 'must check')} ${judged}, fewer than --min-must-checks ${minimum}${ran.length > 0 ? `: ${ran.map((check) => check.id).join(', ')}` : ''}`;", "to": "return `only ${plural(ran.length, 'must check')} ${judged}, fewer than --min-must-checks ${minimum}${ran.length >= 0 ? `: ${ran.map((check) => check.id).join(', ')}` : ''}`;", "tests": ["test/unit/boundaries.test.ts"]},
  {"file": "src/check/length-limit.ts", "what": "U+10FFFF counts as two characters", "from": "if (unit >= 0xd800 && unit <= 0xdbff && i + 1 < text.length) {", "to": "if (unit >= 0xd800 && unit < 0xdbff && i + 1 < text.length) {", "tests": ["test/unit/boundaries.test.ts"]},
  {"file": "src/report/gate.ts", "what": "the gate prints \"new failures:\" with none", "from": "...(gate.new.length > 0 ? [`Gate: new failures: ${gate.new.join(', ')}`] : []),", "to": "...(gate.new.length >= 0 ? [`Gate: new failures: ${gate.new.join(', ')}`] : []),", "tests": ["test/unit/boundaries.test.ts"]},
  {"file": "src/arbitraries/invalid-credential.ts", "what": "a key of one character gets a key-char-changed example (the empty key)", "from": "example: { name: 'key-char-changed', description: 'the valid key with its last character changed', parameters: (key) => (key.length > 1 ? [key.length - 1, otherThan(key.at(-1)!)] : { unavailable: 'the key has one character' }) },", "to": "example: { name: 'key-char-changed', description: 'the valid key with its last character changed', parameters: (key) => (key.length >= 1 ? [key.length - 1, otherThan(key.at(-1)!)] : { unavailable: 'the key has one character' }) },", "tests": ["test/unit/boundaries.test.ts"]},
  {"file": "src/report/verdict.ts", "what": "a capture cut once says \"and 0 more cut\"", "from": "return `the capture ${first!.file} ${first!.reason}: judged up to its last whole entry (${first!.entries} entries)${cut.length > 1 ? `, and ${cut.length - 1} more cut` : ''}; --accept-truncated gives a verdict on what it holds`;", "to": "return `the capture ${first!.file} ${first!.reason}: judged up to its last whole entry (${first!.entries} entries)${cut.length >= 1 ? `, and ${cut.length - 1} more cut` : ''}; --accept-truncated gives a verdict on what it holds`;", "tests": ["test/unit/boundaries.test.ts"]},
  {"file": "src/report/traffic-words.ts", "what": "\"bodies not kept:\" said with none", "from": "left alone)${missing.length > 0 ? `; bodies not kept:", "to": "left alone)${missing.length >= 0 ? `; bodies not kept:", "tests": ["test/unit/boundaries.test.ts"]},
  {"file": "src/traffic/judge.ts", "what": "eleven other origins are noted", "from": "if (this.#otherOrigins.has(origin) || this.#otherOrigins.size < MAX_ORIGINS_NOTED) this.#otherOrigins.set(origin, (this.#otherOrigins.get(origin) ?? 0) + 1);", "to": "if (this.#otherOrigins.has(origin) || this.#otherOrigins.size <= MAX_ORIGINS_NOTED) this.#otherOrigins.set(origin, (this.#otherOrigins.get(origin) ?? 0) + 1);", "tests": ["test/unit/boundaries.test.ts"]},
  {"file": "src/runner/target-run.ts", "what": "--verbose prints a blank line under a check that sent nothing", "from": "if (options.verbose && exchanges.length > 0) this.#print(this.#format.exchanges(exchanges));", "to": "if (options.verbose && exchanges.length >= 0) this.#print(this.#format.exchanges(exchanges));", "tests": ["test/suite/run.test.ts"]},
  {"file": "src/traffic/proxy-judge.ts", "what": "a GET through the proxy is recorded with an empty body", "from": "...(forwarded.requestBody.bytes > 0 && sent ? { body: sent.text } : {})", "to": "...(forwarded.requestBody.bytes >= 0 && sent ? { body: sent.text } : {})", "tests": ["test/unit/boundaries.test.ts"]},
  {"file": "src/traffic/bounded-tokens.ts", "what": "an entry made heavy by a member of its own is not cut (only by deeper ones)", "from": "return open.length >= bounds.entryDepth && weight > bounds.entryChars ? cutEntry(out) : out;", "to": "return open.length > bounds.entryDepth && weight > bounds.entryChars ? cutEntry(out) : out;", "tests": ["test/unit/boundaries.test.ts"]},
  // The last look at this round's change: its new boundaries without a near miss.
  {"file": "src/core/progress-channel.ts", "what": "a count exactly one interval after the last post waits for the timer", "from": "if (now() - lastPostAt >= PROGRESS_INTERVAL_MS) post();", "to": "if (now() - lastPostAt > PROGRESS_INTERVAL_MS) post();", "tests": ["test/unit/status-line.test.ts"]},
  {"file": "src/report/status-line.ts", "what": "a status line exactly as wide as allowed is cut", "from": "text.length > width ?", "to": "text.length >= width ?", "tests": ["test/unit/status-line.test.ts"]},
  {"file": "src/cli/main.ts", "what": "--help ignores the terminal's width", "from": "getOutHelpWidth: () => (io.stdout.isTTY ? (io.stdout as { columns?: number }).columns ?? 80 : 80),", "to": "getOutHelpWidth: () => 80,", "tests": ["test/unit/docs.test.ts", "test/unit/cli-aliases.test.ts"]},
  // Random sweeps over src/ before the fourth fresh sample (2026-11-26): the survivors that are no equivalent mutant, each with the test written for it.
  {"file": "src/check/failure-record.ts", "what": "a failure record names its own check and not another", "from": "if (exchange.checkId !== checkId) record.checkId", "to": "if (exchange.checkId === checkId) record.checkId", "tests": ["test/unit/near-misses.test.ts"]},
  {"file": "src/check/context.ts", "what": "the first look waits before lists, not before writes", "from": "if (!isIdempotent({ method })) await this.run.firstLook();", "to": "if (isIdempotent({ method })) await this.run.firstLook();", "tests": ["test/unit/run-state.test.ts"]},
  {"file": "src/check/length-limit.ts", "what": "the unexplained refusal is sought in UTF-16 units", "from": "!explains(MEASURES[0]![1])", "to": "!explains(MEASURES[1]![1])", "tests": ["test/judgements/others.test.ts"]},
  {"file": "src/traffic/har-writer.ts", "what": "close does not wait for the writes under way", "from": "    await this.#queue;\n", "to": "", "tests": ["test/unit/har-writer.test.ts"]},
  {"file": "src/reference/server.ts", "what": "close leaves connections in flight open", "from": "        server.closeAllConnections();\n", "to": "", "tests": ["test/unit/reference-server.test.ts"]},
  {"file": "src/http/hung-routes.ts", "what": "a route answered since the request was sent hangs all the same", "from": "if (this.#hung.has(route) || (this.#lastAnswer", "to": "if (this.#hung.has(route) && (this.#lastAnswer", "tests": ["test/unit/hung-routes.test.ts"]},
  {"file": "src/judgements/deprecation.ts", "what": "a Deprecation date of one digit (@0) is refused", "from": "const SF_DATE = /^@-?\\d{1,15}$/;", "to": "const SF_DATE = /^@-?\\d{2,15}$/;", "tests": ["test/judgements/auth-and-scope.test.ts"]},
  {"file": "src/cli/signals.ts", "what": "a report unfinished after a failure ends the process without a word", "from": "      process.stderr.write(`petstore-conformance: ${failure.line}; the report could not be finished\\n`);\n", "to": "", "tests": ["test/unit/signals.test.ts"]},
  {"file": "src/cli/signals.ts", "what": "a later failure replaces the first", "from": "    if (interrupt.signal.reason instanceof ToolFailure) return;\n", "to": "", "tests": ["test/unit/signals.test.ts"]},
  {"file": "src/core/progress-channel.ts", "what": "a trailing post leaves its timer set: later counts wait for close", "from": "    trailing = undefined;\n    if (latest === posted) return;", "to": "    if (latest === posted) return;", "tests": ["test/unit/status-line.test.ts"]},
  {"file": "src/check/expect.ts", "what": "a value of exactly the limit is shortened in messages", "from": "const shown = text.length > max ?", "to": "const shown = text.length >= max ?", "tests": ["test/unit/near-misses.test.ts"]},
  {"file": "src/reference/server.ts", "what": "the reference server counts one byte too many: a body of exactly its limit is refused", "from": "  let size = 0;\n", "to": "  let size = 1;\n", "tests": ["test/unit/reference-server.test.ts"]},
  {"file": "src/check/run-state.ts", "what": "the target registering stays set after registration", "from": "  } finally {\n    registering = undefined;\n  }", "to": "  } finally {\n  }", "tests": ["test/unit/run-state.test.ts"]},
  {"file": "src/http/transport-error.ts", "what": "a resolver not answering (EAI_AGAIN) is no missing host", "from": "if (code === 'ENOTFOUND' || code === 'EAI_AGAIN')", "to": "if (code === 'ENOTFOUND')", "tests": ["test/unit/transport-error.test.ts"]},
  {"file": "src/http/transport-error.ts", "what": "a code that merely holds HPE_ is a parse error", "from": "if (code.startsWith('HPE_') ||", "to": "if (code.includes('HPE_') ||", "tests": ["test/unit/transport-error.test.ts"]},
  {"file": "src/http/transport-error.ts", "what": "a tunnel refused with 403 asks for proxy credentials", "from": "const why = status === 407 ?", "to": "const why = status >= 403 ?", "tests": ["test/unit/transport-error.test.ts"]},
  {"file": "src/check/applied.ts", "what": "a listed category with the name sent and another description counts as applied", "from": "return name === sent.name && description === sent.description && !", "to": "return name === sent.name && !", "tests": ["test/unit/applied.test.ts"]},
  {"file": "src/check/applied.ts", "what": "a category the run saw created counts as this create applied", "from": " && !(id !== undefined && known.has(id.toString()));", "to": ";", "tests": ["test/unit/applied.test.ts"]},
  {"file": "src/check/applied.ts", "what": "a list that is no JSON array says not applied (the create sent again)", "from": "if (!parsed?.ok || !Array.isArray(parsed.json.value)) return undefined;", "to": "if (!parsed?.ok || !Array.isArray(parsed.json.value)) return false;", "tests": ["test/unit/applied.test.ts"]},
  {"file": "src/http/connection-pool.ts", "what": "a slot takes a disconnect of its own dispatcher for another's (a closed connection counted as open)", "from": "        if (this.#dispatcher === dispatcher) this.#open = false;", "to": "        if (this.#dispatcher !== dispatcher) this.#open = false;", "tests": ["test/unit/connection-pool.test.ts"]},
  {"file": "src/http/connection-pool.ts", "what": "a discarded dispatcher's connect counts", "from": "        if (this.#dispatcher !== dispatcher) return;\n", "to": "", "tests": ["test/unit/connection-pool.test.ts"]},
  {"file": "src/http/connection-pool.ts", "what": "a fresh request always gets a new dispatcher", "from": "if (fresh && this.#open) this.discard();", "to": "if (fresh) this.discard();", "tests": ["test/unit/connection-pool.test.ts"]},
  {"file": "src/http/connection-pool.ts", "what": "the coldest idle slot is taken", "from": "const slot = this.#idle.pop()!;", "to": "const slot = this.#idle.shift()!;", "tests": ["test/unit/connection-pool.test.ts"]},
  {"file": "src/config/api-key.ts", "what": "a space counts as a control character", "from": "code < 0x20 || code === 0x7f", "to": "code <= 0x20 || code === 0x7f", "tests": ["test/unit/sendable.test.ts"]},
  {"file": "src/config/api-key.ts", "what": "~ counts as outside ASCII", "from": "code > 0x7e ?", "to": "code >= 0x7e ?", "tests": ["test/unit/sendable.test.ts"]},
  {"file": "src/config/api-key.ts", "what": "an emoji is named by its first UTF-16 unit", "from": "const code = character.codePointAt(0)!;", "to": "const code = character.charCodeAt(0);", "tests": ["test/unit/sendable.test.ts"]},
  {"file": "src/config/client-certificate.ts", "what": "a certificate without its key is let through", "from": "if (certPem === undefined || keyPem === undefined) throw", "to": "if (certPem === undefined && keyPem === undefined) throw", "tests": ["test/unit/sendable.test.ts"]},
  {"file": "src/config/proxy.ts", "what": "the upper-case proxy variable wins", "from": "(env[name.toLowerCase()] ?? env[name] ?? '')", "to": "(env[name] ?? env[name.toLowerCase()] ?? '')", "tests": ["test/unit/proxy-environment.test.ts"]},
  {"file": "src/config/proxy.ts", "what": "any socks version is a proxy URL", "from": "/^(https?|socks5?):$/", "to": "/^(https?|socks\\d?):$/", "tests": ["test/unit/proxy-environment.test.ts"]},
  {"file": "src/config/proxy.ts", "what": "an https target with HTTPS_PROXY empty shows no proxy", "from": "const https = baseUrl.startsWith('https:') && proxies.httpsProxy !== '';", "to": "const https = baseUrl.startsWith('https:');", "tests": ["test/unit/proxy-environment.test.ts"]},
  {"file": "src/core/stop-channel.ts", "what": "a stop sent before the listener started is lost", "from": "    if ('ask' in ((message as MessageEvent).data as StopMessage)) channel.postMessage({ stop: reason } satisfies StopMessage);\n", "to": "", "tests": ["test/unit/stop-channel.test.ts"]},
  {"file": "src/check/settle.ts", "what": "the last rejection is thrown", "from": "outcomes.find((outcome) => outcome.status === 'rejected')", "to": "outcomes.findLast((outcome) => outcome.status === 'rejected')", "tests": ["test/unit/small-decisions.test.ts"]},
  {"file": "src/check/settle.ts", "what": "a rejection is thrown before every request ended (Promise.all)", "from": "  const outcomes = await Promise.allSettled(promises);\n", "to": "  await Promise.all(promises);\n  const outcomes = await Promise.allSettled(promises);\n", "tests": ["test/unit/small-decisions.test.ts"]},
  {"file": "src/check/seed.ts", "what": "derived seeds lose their 31st bit", "from": "& 0x7fffffff", "to": "& 0x3fffffff", "tests": ["test/unit/small-decisions.test.ts"]},
  {"file": "src/core/build-state.ts", "what": "a bundle exactly as new as a source is stale", "from": "statSync(source).mtimeMs <= bundleTime", "to": "statSync(source).mtimeMs < bundleTime", "tests": ["test/unit/small-decisions.test.ts"]},
  {"file": "src/core/build-state.ts", "what": "the suites' sources are not compared", "from": "return ['suites', 'src'].flatMap(", "to": "return ['src'].flatMap(", "tests": ["test/unit/small-decisions.test.ts"]},
  {"file": "src/traffic/judge-capture.ts", "what": "the judge's summary is coloured when colour was not asked", "from": "new ConsoleFormat(options.color === true,", "to": "new ConsoleFormat(options.color !== false,", "tests": ["test/traffic/judge.test.ts"]},
  {"file": "src/core/tool-failure.ts", "what": "an exhausted resource three causes deep is not found", "from": "for (let cause = error, depth = 0; cause && depth < 4;", "to": "for (let cause = error, depth = 1; cause && depth < 4;", "tests": ["test/unit/near-misses.test.ts"]},
  {"file": "src/traffic/proxy-session.ts", "what": "a session that cut nothing says 0 exchanges were cut", "from": "...(cut > 0 ? [`${cut} exchanges in flight", "to": "...(cut >= 0 ? [`${cut} exchanges in flight", "tests": ["test/traffic/proxy-session.test.ts"]},
  {"file": "src/traffic/proxy.ts", "what": "a body with a Content-Length other than 0 is not forwarded", "from": "incoming.headers['content-length'] !== '0');", "to": "incoming.headers['content-length'] === '0');", "tests": ["test/traffic/proxy-session.test.ts"]},
  {"file": "src/config/file.ts", "what": "a YAML syntax error is placed at its end, not its start", "from": "if (syntax) throw new UsageError(`${at(syntax.pos[0])}", "to": "if (syntax) throw new UsageError(`${at(syntax.pos[1])}", "tests": ["test/unit/config-file.test.ts"]},
  // Issue 34's fourth fresh sample (scripts/mutation-samples/2026-11-26-fourth.json, 12 of 15 killed as drawn, one of the 3 survivors equivalent): the other two, each with its test.
  {"file": "src/http/retry-policy.ts", "what": "a Retry-After HTTP-date with whitespace around it is not read", "from": "if (!/^(mon|tue|wed|thu|fri|sat|sun)/i.test(value.trim())) return undefined;", "to": "if (!/^(mon|tue|wed|thu|fri|sat|sun)/i.test(value)) return undefined;", "tests": ["test/unit/near-misses.test.ts"]},
  {"file": "src/runner/list.ts", "what": "a failed collection of the check list is kept: every later call fails", "from": "    collected = undefined;\n", "to": "", "tests": ["test/unit/list-checks.test.ts"]},
  {"file": "src/traffic/har-reader.ts", "what": "a zlib-compressed capture is read as it is", "from": "  if ((head[0]! & 0x0f) === 8 && (head[0]! * 256 + head[1]!) % 31 === 0) return [bytes, createInflate()];\n", "to": "", "tests": ["test/traffic/judge.test.ts"]},
  // Direct tables for code the fast tier reached only end to end (2026-11-27): the property runner, the HAR reader, the fleet summary, the command line.
  {"file": "src/check/property.ts", "what": "shrinking spends one request more than its budget", "from": "t.exchanges.length - sentAtFirstFailure >= settings.shrinkBudget", "to": "t.exchanges.length - sentAtFirstFailure > settings.shrinkBudget", "tests": ["test/unit/property.test.ts"]},
  {"file": "src/check/property.ts", "what": "the first generated input failing is reported as a coverage input", "from": "if (concurrent && concurrent.index < coverage.length) {", "to": "if (concurrent && concurrent.index <= coverage.length) {", "tests": ["test/unit/property.test.ts"]},
  {"file": "src/check/property.ts", "what": "a timeout is shrunk like any failure", "from": "        stopShrinking = 'not shrunk: the failure is a timeout';\n", "to": "", "tests": ["test/unit/property.test.ts"]},
  {"file": "src/check/property.ts", "what": "a coverage value of exactly its limit is cut", "from": "shown.length > SHOWN_COVERAGE_CHARS ?", "to": "shown.length >= SHOWN_COVERAGE_CHARS ?", "tests": ["test/unit/property.test.ts"]},
  {"file": "src/check/property.ts", "what": "a property cut short by its time limit passes", "from": "    if (details.interrupted) {", "to": "    if (false) {", "tests": ["test/unit/property.test.ts"]},
  {"file": "src/check/property.ts", "what": "no shrink reads \"0 shrink\"", "from": "${n === 1 ? '' : 's'}", "to": "${n <= 1 ? '' : 's'}", "tests": ["test/unit/property.test.ts"]},
  {"file": "src/check/property.ts", "what": "the replay of an external target starts the embedded server", "from": "settings.targetKind === 'external' ? settings.baseUrl : undefined", "to": "undefined", "tests": ["test/unit/property.test.ts"]},
  {"file": "src/check/property.ts", "what": "among failures under way, the one that finished first is reported", "from": "if (!earlier || index < earlier.index) failed =", "to": "if (!earlier) failed =", "tests": ["test/unit/property.test.ts"]},
  {"file": "src/traffic/har-reader.ts", "what": "a first byte with deflate's method or a header check alone is read as zlib (a HAR starting \\n\\r)", "from": "(head[0]! & 0x0f) === 8 && (head", "to": "(head[0]! & 0x0f) === 8 || (head", "tests": ["test/unit/har-reader.test.ts"]},
  {"file": "src/traffic/har-reader.ts", "what": "a capture broken in its middle is said to end early", "from": "  let ended = false;\n", "to": "  let ended = true;\n", "tests": ["test/unit/har-reader.test.ts"]},
  {"file": "src/traffic/rules.ts", "what": "a create with a description counts as holding unknown properties", "from": "key !== 'name' && key !== 'description'", "to": "key !== 'name' && key === 'description'", "tests": ["test/unit/near-misses.test.ts"]},
  {"file": "src/report/fleet.ts", "what": "a fleet of one reads \"1 targets\"", "from": "fleet.targets.length === 1 ?", "to": "fleet.targets.length === 2 ?", "tests": ["test/unit/fleet-report.test.ts"]},
  {"file": "src/report/fleet.ts", "what": "summary.md lists the targets by name, not the worst first", "from": "const rows = [...fleet.targets].sort((a, b) => order.indexOf(a.exitCode as 0) - order.indexOf(b.exitCode as 0));", "to": "const rows = [...fleet.targets];", "tests": ["test/unit/fleet-report.test.ts"]},
  {"file": "src/traffic/judge-capture.ts", "what": "a judged capture reports a seed it never used", "from": "    seed: 0,\n    runId: 'traffic',", "to": "    seed: 1,\n    runId: 'traffic',", "tests": ["test/unit/small-decisions.test.ts"]},
  {"file": "src/cli/main.ts", "what": "port 65535 is refused", "from": "v >= 0 && v <= 65535", "to": "v >= 0 && v < 65535", "tests": ["test/unit/cli-main.test.ts"]},
  {"file": "src/cli/main.ts", "what": "port -1 is taken", "from": "v >= 0 && v <= 65535", "to": "v >= -1 && v <= 65535", "tests": ["test/unit/cli-main.test.ts"]},
  {"file": "src/cli/main.ts", "what": "--api-key-env is refused as a key on argv", "from": "arg.startsWith('--api-key=')", "to": "arg.startsWith('--api-key')", "tests": ["test/unit/cli-main.test.ts"]},
  {"file": "src/cli/main.ts", "what": "the report folder asked for is said to be a fallback", "from": "if (i > 0) io.stderr.write", "to": "if (i >= 0) io.stderr.write", "tests": ["test/unit/cli-main.test.ts"]},
  {"file": "src/cli/main.ts", "what": "an internal error's stack is printed without PETSTORE_CONFORMANCE_DEBUG", "from": "if (io.env.PETSTORE_CONFORMANCE_DEBUG) io.stderr.write", "to": "io.stderr.write", "tests": ["test/unit/cli-main.test.ts"]},
  {"file": "src/cli/main.ts", "what": "a judged capture is coloured off a terminal", "from": "color: flags.color !== false && !io.env.NO_COLOR && Boolean(io.stdout.isTTY || io.env.FORCE_COLOR),\n  };", "to": "color: flags.color !== false && !io.env.NO_COLOR,\n  };", "tests": ["test/unit/cli-main.test.ts"]},
  {"file": "src/traffic/har-reader.ts", "what": "a named object with a request is taken for the creator", "from": " && !('request' in item) && ", "to": " && ", "tests": ["test/unit/har-reader.test.ts"]},
  {"file": "src/config/shard.ts", "what": "--shard 1/n is refused", "from": "index >= 1 && index <= count", "to": "index > 1 && index <= count", "tests": ["test/unit/small-decisions.test.ts"]},
  {"file": "src/check/refusal.ts", "what": "the length limits are sought among the accepted values", "from": "const refused = observations.filter((observation) => !observation.accepted);", "to": "const refused = observations.filter((observation) => observation.accepted);", "tests": ["test/judgements/others.test.ts"]},
  {"file": "src/check/refusal.ts", "what": "a single refusal past 64 characters is not sought as a limit", "from": "if (refused.length === 0) return;", "to": "if (refused.length === 1) return;", "tests": ["test/judgements/others.test.ts"]},
  {"file": "src/check/refusal.ts", "what": "a refusal of exactly 64 characters is sought as a limit", "from": ".filter((bytes) => bytes > EVERYDAY_LENGTH);", "to": ".filter((bytes) => bytes >= EVERYDAY_LENGTH);", "tests": ["test/judgements/others.test.ts"]},
  {"file": "src/check/refusal.ts", "what": "a comma follows \"included\" inside the policy's words", "from": "phrase.endsWith('included')", "to": "phrase.includes('included')", "tests": ["test/judgements/others.test.ts"]},
  {"file": "src/check/refusal.ts", "what": "U+10000 is taken for a BMP character", "from": "/[\\u{10000}-\\u{10ffff}]/u", "to": "/[\\u{10001}-\\u{10ffff}]/u", "tests": ["test/judgements/others.test.ts"]},
  {"file": "src/http/body-reader.ts", "what": "a large body read whole keeps counting at the size expected", "from": "      done(decoding.bytes);\n", "to": "", "tests": ["test/unit/large-bodies.test.ts"]},
  {"file": "src/runner/fleet.ts", "what": "a fleet opens more lanes than it has targets", "from": "const laneCount = Math.min(", "to": "const laneCount = Math.max(", "tests": ["test/suite/fleet-options.test.ts"]},
  {"file": "src/runner/fleet.ts", "what": "a fleet that wrote nothing prints an empty Report line", "from": "written.length > 0 ?", "to": "written.length >= 0 ?", "tests": ["test/suite/fleet-options.test.ts"]},
  {"file": "src/runner/fleet.ts", "what": "a target that asks for other formats writes no report.json (merge has nothing to read)", "from": "formats: [...new Set(['json' as const, ...(member.formats ?? SETTINGS.formats.default)])],", "to": "formats: [...new Set([...(member.formats ?? SETTINGS.formats.default)])],", "tests": ["test/suite/fleet-options.test.ts"]},
  {"file": "src/runner/fleet.ts", "what": "a fleet without a report folder names one per target", "from": "options.reportDir === null ? null : name);", "to": "name);", "tests": ["test/suite/fleet-options.test.ts"]},
  {"file": "src/http/large-body-leases.ts", "what": "a budget of 41 MiB: bodies of 2.5 MiB and a byte have a lease per connection", "from": "export const LARGE_BODIES_BUDGET_BYTES = 40 * 1024 * 1024;", "to": "export const LARGE_BODIES_BUDGET_BYTES = 41 * 1024 * 1024;", "tests": ["test/unit/large-bodies.test.ts"]},
  {"file": "src/http/large-body-leases.ts", "what": "a body of 1 MiB and a byte is small", "from": "export const LARGE_BODY_BYTES = 1024 * 1024;", "to": "export const LARGE_BODY_BYTES = 1024 * 1025;", "tests": ["test/unit/large-bodies.test.ts"]},
  {"file": "src/http/body-reader.ts", "what": "a body of exactly 1 MiB is large", "from": "if (decoding.bytes > LARGE_BODY_BYTES) break;", "to": "if (decoding.bytes >= LARGE_BODY_BYTES) break;", "tests": ["test/unit/large-bodies.test.ts"]},
  {"file": "src/runner/fleet.ts", "what": "a fleet of twelve warns of a listener leak on its stop", "from": "if (stop) setMaxListeners(0, stop);", "to": "if (stop) setMaxListeners(1, stop);", "tests": ["test/suite/fleet-options.test.ts"]},
  {"file": "src/secrets/pieces.ts", "what": "[ folds to { as if a letter", "from": "return code >= 65 && code <= 90 ? code + 32 : code;", "to": "return code >= 65 && code <= 91 ? code + 32 : code;", "tests": ["test/unit/secrets.test.ts"]},
  {"file": "src/secrets/pieces.ts", "what": "@ folds to ` as if a letter", "from": "return code >= 65 && code <= 90 ? code + 32 : code;", "to": "return code >= 64 && code <= 90 ? code + 32 : code;", "tests": ["test/unit/secrets.test.ts"]},
  {"file": "src/config/file.ts", "what": "a selection of targets all present is refused", "from": "if (missing.length > 0) throw", "to": "if (missing.length >= 0) throw", "tests": ["test/unit/config-file.test.ts"]},
  {"file": "src/report/check-list.ts", "what": "the check table leaves its last two columns unpadded", "from": "(i < row.length - 1 ? cell.padEnd", "to": "(i < row.length - 2 ? cell.padEnd", "tests": ["test/unit/cli-main.test.ts"]},
  {"file": "src/arbitraries/schema-value.ts", "what": "a number property may be NaN, which JSON cannot carry", "from": "fc.double({ noNaN: true, noDefaultInfinity: true })", "to": "fc.double({ noNaN: false, noDefaultInfinity: true })", "tests": ["test/unit/arbitraries.test.ts"]},
  {"file": "src/traffic/har-reader.ts", "what": "a HAR that breaks within its first read is called no HAR file (the verdict depends on where reads fell)", "from": "if (!harLog && !harStart) throw", "to": "if (!harLog) throw", "tests": ["test/unit/har-reader.test.ts"]},
  {"file": "src/traffic/capture.ts", "what": "a compressed body inflates to 65 MiB", "from": "const MAX_INFLATED_BYTES = 64 * 1024 * 1024;", "to": "const MAX_INFLATED_BYTES = 65 * 1024 * 1024;", "tests": ["test/unit/capture.test.ts"]},
  {"file": "src/traffic/capture.ts", "what": "an entry whose start is no date is placed at NaN", "from": "if (!entry?.request?.method || !entry.request.url || !Number.isFinite(startMs)) return undefined;", "to": "if (!entry?.request?.method || !entry.request.url && !Number.isFinite(startMs)) return undefined;", "tests": ["test/unit/capture.test.ts"]},
  {"file": "src/traffic/capture.ts", "what": "an unanswered entry without a comment says \"(undefined)\"", "from": "entry.comment ? ` (${entry.comment})` : ''", "to": "` (${entry.comment})`", "tests": ["test/unit/capture.test.ts"]},
  {"file": "src/traffic/capture.ts", "what": "a request body not kept, of bodySize 0, counts 0 bytes (as if one was sent)", "from": "typeof size === 'number' && size > 0 ? { bodyBytes: size }", "to": "typeof size === 'number' && size >= 0 ? { bodyBytes: size }", "tests": ["test/unit/capture.test.ts"]},
  {"file": "src/traffic/capture.ts", "what": "a response body not kept, of size -1, counts -1 bytes", "from": "bodyBytes: decoded?.bytes ?? Math.max(0,", "to": "bodyBytes: decoded?.bytes ?? Math.min(0,", "tests": ["test/unit/capture.test.ts"]},
  {"file": "src/traffic/capture.ts", "what": "a body without text of size 1 counts as empty", "from": "if (known === 0 || (what", "to": "if (known === 1 || (what", "tests": ["test/unit/capture.test.ts"]},
  {"file": "src/traffic/capture.ts", "what": "a response without content text is no missing body", "from": "if (known === 0 || (what === 'request body' && content", "to": "if (known === 0 || (what === 'request body' || content", "tests": ["test/unit/capture.test.ts"]},
  {"file": "src/traffic/capture.ts", "what": "params with one member left out are rebuilt without it", "from": "params.some(({ name, value }) => isCut(name) || isCut(value))", "to": "params.some(({ name, value }) => isCut(name) && isCut(value))", "tests": ["test/unit/capture.test.ts"]},
  {"file": "src/traffic/capture.ts", "what": "JSON params named 0 and x are taken for an array's indexes", "from": "const indexes = names.every(", "to": "const indexes = names.some(", "tests": ["test/unit/capture.test.ts"]},
  {"file": "src/traffic/capture.ts", "what": "a media type with spaces around it is not JSON", "from": ".split(';', 1)[0]!.trim().toLowerCase()", "to": ".split(';', 1)[0]!.toLowerCase()", "tests": ["test/unit/capture.test.ts"]},
  {"file": "src/traffic/capture.ts", "what": "text of exactly its size is taken for a cut", "from": "decoded.bytes < length && !isCoded", "to": "decoded.bytes <= length && !isCoded", "tests": ["test/unit/capture.test.ts"]},
  {"file": "src/traffic/capture.ts", "what": "a body not kept is taken for invalid UTF-8", "from": "utf8Valid: decoded?.utf8Valid ?? true", "to": "utf8Valid: decoded?.utf8Valid ?? false", "tests": ["test/unit/capture.test.ts"]},
  {"file": "src/traffic/capture.ts", "what": "a superseded attempt keeps the words \"superseded:\" in its reason", "from": "if (superseded) exchange.superseded = superseded[1]!;", "to": "if (superseded) exchange.superseded = superseded[0]!;", "tests": ["test/unit/capture.test.ts"]},
  {"file": "src/traffic/capture.ts", "what": "a Content-Encoding with spaces around it is not inflated", "from": "const coding = contentEncoding?.trim().toLowerCase();", "to": "const coding = contentEncoding?.toLowerCase();", "tests": ["test/unit/capture.test.ts"]},
  {"file": "src/traffic/capture.ts", "what": "any body whose second byte is 0x8b is taken for gzip", "from": "(coding === 'gzip' || coding === 'x-gzip') && bytes[0] === 0x1f && bytes[1] === 0x8b", "to": "(coding === 'gzip' || coding === 'x-gzip') && bytes[0] === 0x1f || bytes[1] === 0x8b", "tests": ["test/unit/capture.test.ts"]},
  {"file": "src/traffic/capture.ts", "what": "any body starting with 0x78 is inflated as deflate", "from": "if (coding === 'deflate' && bytes[0] === 0x78)", "to": "if (coding === 'deflate' || bytes[0] === 0x78)", "tests": ["test/unit/capture.test.ts"]},
  {"file": "src/traffic/capture.ts", "what": "a brotli body already JSON is decompressed again", "from": "return first === '{' || first === '[' ? bytes", "to": "return first === '{' && first === '[' ? bytes", "tests": ["test/unit/capture.test.ts"]},
  // Issue 34's fifth fresh sample (scripts/mutation-samples/2026-11-27-fifth.json, 15 of 15 killed, one by the slow tier alone): that one, now held by the fast tier too.
  {"file": "src/config/file.ts", "what": "a schema violation is placed at the first key of another name", "from": "String(item.key.value) === segment", "to": "String(item.key.value) !== segment", "tests": ["test/unit/config-file.test.ts"]},
  // Issue 35: the suite's thread (vitest's runner without its Node API) and the fair connection queue.
  { file: 'src/runner/suite-thread.ts', what: 'a cancel while the file is collected still starts its blocks', from: "    if (cancelled) suite.mode = 'skip';\n", to: '', tests: ['test/unit/suite-thread.test.ts'] },
  { file: 'src/runner/suite-thread.ts', what: "the file's end is taken for a target's block", from: 'suite !== suite.file && suite.suite === undefined', to: 'suite.suite === undefined', tests: ['test/unit/suite-thread.test.ts'] },
  { file: 'src/runner/suite-thread.ts', what: 'a nested describe is taken for a target\'s block', from: 'suite !== suite.file && suite.suite === undefined', to: 'suite !== suite.file', tests: ['test/unit/suite-thread.test.ts'] },
  { file: 'src/runner/suite-thread.ts', what: 'the run ends before a rejection nobody awaited is heard', from: 'await new Promise((resolve) => setImmediate(resolve));', to: '', tests: ['test/unit/suite-thread.test.ts'] },
  { file: 'src/runner/suite-thread.ts', what: 'a check that skipped itself is not reported as it ends', from: "if (test.result?.state === 'skip') report(test, 'skipped',", to: "if (test.result?.state === 'todo') report(test, 'skipped',", tests: ['test/unit/suite-thread.test.ts'] },
  { file: 'src/runner/suite.ts', what: 'a thread that exits before its run ended is not a failure', from: 'if (!ranToEnd) failure ??=', to: 'if (ranToEnd) failure ??=', tests: ['test/unit/suite-thread.test.ts'] },
  { file: 'src/runner/collector.ts', what: 'a test not declared with check() is named twice', from: 'if (!this.runErrors.includes(line)) this.runErrors.push(line);', to: 'this.runErrors.push(line);', tests: ['test/unit/suite-thread.test.ts'] },
  { file: 'src/runner/target-run.ts', what: "the thread's end erases the probe's answer", from: 'if (this.#reached !== undefined) return; // answered already', to: '// answered already', tests: ['test/suite/safety.test.ts', 'test/suite/verdicts.test.ts'] },
  { file: 'src/runner/suite-thread.ts', what: 'the run ends before its probes have answered', from: 'await Promise.all(probes);', to: '', tests: ['test/suite/run.test.ts'] },
  { file: 'src/http/connection-pool.ts', what: 'a freed slot goes to the longest waiting request (first come, first served)', from: 'for (let i = 1; i < this.#waiting.length; i++) if (held(this.#waiting[i]!) < held(this.#waiting[chosen]!)) chosen = i;', to: '', tests: ['test/unit/connection-pool.test.ts'] },
  { file: 'src/http/connection-pool.ts', what: 'among checks holding as many slots, the last to ask goes first', from: 'held(this.#waiting[i]!) < held(this.#waiting[chosen]!)', to: 'held(this.#waiting[i]!) <= held(this.#waiting[chosen]!)', tests: ['test/unit/connection-pool.test.ts'] },
  // Issue 44: what the run tries, and its own load never a fault.
  { file: 'src/http/load-policy.ts', what: 'a written request is taken for the limit once more than its bound', from: 'facts.limitResets < MAX_LIMIT_RESETS', to: 'facts.limitResets <= MAX_LIMIT_RESETS', tests: ['test/unit/load.test.ts'] },
  { file: 'src/http/load-policy.ts', what: 'a reset with no other connection open is taken for the limit', from: "return facts.crowded && exchange.connection === 'fresh'", to: "return exchange.connection === 'fresh'", tests: ['test/unit/load.test.ts'] },
  { file: 'src/http/load-policy.ts', what: 'a reset of a held connection is taken for the limit', from: "return facts.crowded && exchange.connection === 'fresh'", to: 'return facts.crowded', tests: ['test/unit/load.test.ts'] },
  { file: 'src/http/load-policy.ts', what: 'the streak of resets stops one reset later', from: 'facts.resetsInARow >= 2 * facts.connections', to: 'facts.resetsInARow > 2 * facts.connections', tests: ['test/unit/load.test.ts'] },
  { file: 'src/http/load-policy.ts', what: 'a request unanswered again on its new connection is sent again once more', from: "exchange.connection === 'reused' && !facts.sentAgain", to: "exchange.connection === 'reused'", tests: ['test/unit/load.test.ts'] },
  { file: 'src/http/connection-limit.ts', what: 'a reset keeps the limit where it was when the target held as many', from: 'Math.min(this.current - 1, heldOpen)', to: 'Math.min(this.current, heldOpen)', tests: ['test/unit/load.test.ts'] },
  { file: 'src/http/connection-limit.ts', what: 'an attempt sent at the old limit lowers it again', from: 'if (epochAtStart < this.#epoch) return false;', to: '', tests: ['test/unit/load.test.ts'] },
  { file: 'src/config/settings.ts', what: '--rate-limit 4.5 opens 4 connections', from: 'Math.ceil(values.rateLimit)', to: 'Math.floor(values.rateLimit)', tests: ['test/unit/load.test.ts'] },
  { file: 'src/config/settings.ts', what: 'a read-only run of a loopback target opens 4 connections', from: "profile === 'read-only' && remote ?", to: "profile === 'read-only' ?", tests: ['test/unit/load.test.ts'] },
  { file: 'src/check/id-space.ts', what: 'ids rising in exactly the ordered share are taken for a random draw', from: 'orderedShare < ORDERED_SHARE', to: 'orderedShare <= ORDERED_SHARE', tests: ['test/unit/id-space.test.ts'] },
  { file: 'src/check/id-space.ts', what: 'ids spread exactly as far as the bound are taken for a random draw', from: 'range > SPREAD_PER_ID * count', to: 'range >= SPREAD_PER_ID * count', tests: ['test/unit/id-space.test.ts'] },
  { file: 'src/check/id-space.ts', what: 'the birthday bound is one id short', from: 'return Math.ceil((1 + Math.sqrt(1 + 4 * product)) / 2);', to: 'return Math.floor((1 + Math.sqrt(1 + 4 * product)) / 2);', tests: ['test/unit/id-space.test.ts'] },
  { file: 'src/judgements/auth.ts', what: 'an empty array without a key passes even when the keyed list is empty too', from: 'Array.isArray(value) && (value.length > 0 || listedNone)', to: 'Array.isArray(value) && value.length > 0', tests: ['test/judgements/auth-and-scope.test.ts'] },
  { file: 'src/judgements/auth.ts', what: 'a 299 to an invalid credential is no acceptance', from: 'const accepted = status >= 200 && status < 300;', to: 'const accepted = status >= 200 && status < 299;', tests: ['test/judgements/auth-and-scope.test.ts'] },
  { file: 'src/judgements/create.ts', what: 'a deep body may be answered 414', from: 'const DEEP_BODY_ANSWERS = [201, 400, 413];', to: 'const DEEP_BODY_ANSWERS = [201, 400, 413, 414];', tests: ['test/judgements/list-create.test.ts'] },
  { file: 'src/http/path-spellings.ts', what: 'an empty query is the operation’s own path', from: "return path.endsWith('/v1/categories') && query !== '';", to: "return path.endsWith('/v1/categories');", tests: ['test/unit/path-spellings.test.ts'] },
  { file: 'src/report/curl.ts', what: 'curl resolves a dot segment of the replayed path', from: "...(dotSegments ? ['--path-as-is'] : [])", to: '', tests: ['test/unit/path-spellings.test.ts'] },
  { file: 'src/traffic/capture.ts', what: 'params are rebuilt whatever their length', from: 'if (Buffer.byteLength(text) === length.bytes || text.length === length.units) return { ...postData, text };', to: 'return { ...postData, text };', tests: ['test/unit/capture.test.ts'] },
  { file: 'src/traffic/capture.ts', what: 'a header without a value is not counted', from: '.filter((pair) => pair?.value === undefined)', to: '.filter(() => false)', tests: ['test/unit/capture.test.ts'] },
  { file: 'src/json/lossless.ts', what: 'lossless-json recurses past its safe depth', from: 'if (depth > RECURSIVE_DEPTH) {', to: 'if (depth > RECURSIVE_DEPTH * 1000) {', tests: ['test/unit/int64.test.ts'] },
  { file: 'src/http/client.ts', what: 'a body refused as invalid (400) is taken for one left unread', from: 'body !== undefined && response.status > 400', to: 'body !== undefined && response.status >= 400', tests: ['test/unit/client.test.ts'] },
  { file: 'src/http/client.ts', what: 'a request goes out where a refused body may lie unread', from: 'const renew = fresh || slot.mayHoldUnreadBody;', to: 'const renew = fresh;', tests: ['test/unit/client.test.ts'] },
  { file: 'src/traffic/credentials.ts', what: 'the key base64-encoded without its padding is not recognised', from: "base64.replace(/=+$/, '')", to: 'base64', tests: ['test/unit/near-misses.test.ts'] },
  // Issue 45: a gate that cannot pass by mistake, and a first minute that names the user's mistake.
  // Issue 46: the proxy records every exchange, its judge sheds, a partial report says so.
  { file: 'src/traffic/judging.ts', what: 'the HAR writer asks no wait at its bound of exchanges', from: 'backlog.exchanges <= bound.exchanges', to: 'backlog.exchanges < bound.exchanges', tests: ['test/traffic/proxy.test.ts'] },
  { file: 'src/traffic/judging.ts', what: 'a lone exchange past the judge\'s bound is shed', from: '!options.recordOnly && backlog.exchanges > 0 && ', to: '!options.recordOnly && ', tests: ['test/traffic/proxy.test.ts'] },
  { file: 'src/traffic/proxy.ts', what: 'a request held at the stop is not counted as cut', from: 'const cut = inFlight.size + held;', to: 'const cut = inFlight.size;', tests: ['test/traffic/proxy-session.test.ts'] },
  { file: 'src/traffic/proxy-session.ts', what: 'a session that cut exchanges is not partial', from: 'const unjudged = judged.notJudged + cut;', to: 'const unjudged = judged.notJudged;', tests: ['test/traffic/proxy-session.test.ts'] },
  // Issue 47: the six survivors of the reviewer's sample, and sequential order.
  { file: 'src/cli/main.ts', what: 'proxy --client-cert without --client-key is let through', from: 'if (upstream.clientCertPem !== undefined || upstream.clientKeyPem !== undefined)', to: 'if (upstream.clientCertPem !== undefined && upstream.clientKeyPem !== undefined)', tests: ['test/unit/twins.test.ts'] },
  { file: 'src/cli/main.ts', what: 'run colours a pipe and ignores --no-color', from: '      color: colourWanted(flags, io, toStdout', to: '      color: flags.color !== true || colourWanted(flags, io, toStdout', tests: ['test/unit/twins.test.ts'] },
  { file: 'src/traffic/proxy-session.ts', what: "the proxy's HAR line is reworded", from: 'print(`HAR: ${options.har} (', to: 'print(`HAR file: ${options.har} (', tests: ['test/unit/outputs.test.ts'] },
  { file: 'src/judgements/auth.ts', what: 'the invalid_token failure reports another expectation', from: "    expected: 'error=\"invalid_token\"',", to: "    expected: 'error=invalid_token',", tests: ['test/judgements/auth-and-scope.test.ts'] },
  { file: 'src/report/visible.ts', what: 'a noncharacter beyond the BMP is escaped by its high surrogate', from: 'const code = character.codePointAt(0)!;', to: 'const code = character.charCodeAt(0);', tests: ['test/unit/renderers.test.ts'] },
  { file: 'src/report/visible.ts', what: 'bidirectional controls reach the console', from: '\\\\u061c\\\\u200e\\\\u200f\\\\u202a-\\\\u202e\\\\u2066-\\\\u2069', to: '', tests: ['test/unit/renderers.test.ts'] },
  { file: 'src/check/define.ts', what: 'a sequential check runs concurrently', from: 'options.sequential ? test.sequential : test.concurrent', to: '!options.sequential ? test.sequential : test.concurrent', tests: ['test/unit/check-order.test.ts'] },  // Issue 47's fresh sample (scripts/mutation-samples/2026-11-27-seed-970783576.json, 48 of 60 killed as drawn): the survivors that are no equivalent mutant, each with its test.
  { file: 'src/reference/behaviour.ts', what: 'an id past 2^53 crashes the reference server', from: 'if (error !== UNSAFE) throw error;', to: 'if (error === UNSAFE) throw error;', tests: ['test/unit/reference-server.test.ts'] },
  { file: 'src/reference/behaviour.ts', what: 'the routes outside the interface answer 500', from: "b.error(501, 'not_implemented'", to: "b.error(500, 'not_implemented'", tests: ['test/unit/reference-server.test.ts'] },
  { file: 'src/config/read-input.ts', what: 'a socket is named a FIFO', from: "(${await stat(path).then(kindOf, () => 'a FIFO')})", to: '(a FIFO)', tests: ['test/unit/config.test.ts'] },
  { file: 'src/report/build.ts', what: 'a base URL where nothing is served is not diagnosed', from: 'if (status === 404) return', to: 'if (status === 405) return', tests: ['test/unit/assessability.test.ts'] },
  { file: 'src/http/body-reader.ts', what: 'a request deadline never starts', from: '    if (this.#timer !== undefined || this.#controller.signal.aborted) return;', to: '    return;', tests: ['test/unit/large-bodies.test.ts'] },
  { file: 'src/secrets/encoded-forms.ts', what: 'a base64 core of exactly 8 characters is no form', from: 'if (core.length < 8) continue;', to: 'if (core.length <= 8) continue;', tests: ['test/unit/secrets.test.ts'] },
  { file: 'src/traffic/judge-capture.ts', what: 'an eleventh finding of a check is printed', from: 'export const PRINTED_FINDINGS_PER_CHECK = 10;', to: 'export const PRINTED_FINDINGS_PER_CHECK = 11;', tests: ['test/unit/outputs.test.ts'] },
  { file: 'src/report/redact.ts', what: "the tool's own words lose a short key's pieces", from: "path.endsWith('.response.body')) return redactor.responseBody", to: "path.endsWith('')) return redactor.responseBody", tests: ['test/unit/redaction-default.test.ts'] },
];

const run = promisify(execFile);

/** Whether the tests fail with the mutation in place. */
async function killed(tests: readonly string[]): Promise<boolean> {
  try {
    // Every test file is eligible, whichever tier (test/tiers.ts) holds it.
    await run(process.execPath, [join(packageRoot, 'node_modules/vitest/vitest.mjs'), 'run', ...tests, '--reporter=dot'], { cwd: packageRoot, env: { ...process.env, PCS_ALL_TESTS: '1' } });
    return false;
  } catch {
    return true;
  }
}

/** The fast tests a fresh sample is judged against (about 25 s here): what a reviewer runs per mutation. */
const SAMPLE_TESTS = ['test/unit', 'test/judgements', 'test/traffic/judge.test.ts'];

/**
 * `npm run mutations -- WORDS`: only the mutations whose file or description holds WORDS.
 * `npm run mutations -- --sample FILE.json`: a fresh sample (scripts/mutation-samples/),
 * each mutation judged against {@link SAMPLE_TESTS} unless it names its own tests.
 * `npm run mutations -- --sample-fresh N --seed S [--slow]`: a sample drawn now from every
 * site of src/ (mutation-sample.ts).
 */
const { values: flags, positionals } = parseArgs({ options: { sample: { type: 'string' }, 'sample-fresh': { type: 'string' }, seed: { type: 'string' }, slow: { type: 'boolean' } }, allowPositionals: true });
if (flags['sample-fresh'] !== undefined) {
  const count = Number(flags['sample-fresh']);
  const seed = Number(flags.seed ?? Date.now() % 2 ** 31);
  if (!Number.isInteger(count) || count < 1 || !Number.isInteger(seed)) {
    process.stderr.write('mutations: --sample-fresh takes a whole number of mutations, --seed a whole number\n');
    process.exit(2);
  }
  const { sampleFresh } = await import('./mutation-sample.js');
  process.exit(await sampleFresh({ count, seed, slow: flags.slow === true, listed: MUTATIONS }));
}
const sample = flags.sample !== undefined ? (JSON.parse(readFileSync(flags.sample, 'utf8')) as Mutation[]).map((m) => ({ ...m, tests: m.tests ?? SAMPLE_TESTS })) : undefined;
const only = sample ? '' : positionals.join(' ');
const rows: Array<[string, string]> = [];
for (const mutation of (sample ?? MUTATIONS).filter((m) => only === '' || `${m.file}: ${m.what}`.includes(only))) {
  const path = join(packageRoot, mutation.file);
  const original = readFileSync(path, 'utf8');
  if (!original.includes(mutation.from)) throw new Error(`${mutation.file}: the mutated text is gone: ${mutation.from}`);
  writeFileSync(path, original.replace(mutation.from, mutation.to));
  try {
    rows.push([(await killed(mutation.tests ?? ['test/judgements'])) ? 'killed' : 'SURVIVED', `${mutation.file}: ${mutation.what}`]);
  } finally {
    writeFileSync(path, original);
  }
  process.stdout.write(`${rows.at(-1)![0].padEnd(9)} ${rows.at(-1)![1]}\n`);
}
const survived = rows.filter(([outcome]) => outcome === 'SURVIVED').length;
process.stdout.write(`\n${rows.length - survived} of ${rows.length} mutations killed\n`);
process.exitCode = survived > 0 ? 1 : 0;
