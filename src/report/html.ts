import { escapeUTF8 } from 'entities';
import { visible } from './visible.js';
import type { CheckLevel, PropertyRecord } from '../check/types.js';
import { failureText } from './failure-text.js';
import { bannerOf, byWeight, countsForVerdict, noCheckRan, partialBasis } from './verdict.js';
import type { CheckResult, Finding, Report } from './model.js';
import { trafficWords } from './traffic-words.js';

/**
 * Escapes text for HTML (entities: &, <, >, " and ' in a UTF-8 document); control
 * characters, lone surrogates and noncharacters first become visible `\uXXXX` text, since
 * a reference to one is an HTML parse error (control-character-reference).
 */
const e = (text: string | number) => escapeUTF8(visible(String(text)));

const STYLE = `
body{font:14px/1.45 system-ui,-apple-system,"Segoe UI",Roboto,sans-serif;margin:0;color:#1f2328;background:#f6f8fa}
main{max-width:1100px;margin:0 auto;padding:24px}
h1{font-size:22px;margin:0 0 4px}h2{font-size:17px;margin:28px 0 8px}
.verdict{border-radius:8px;padding:16px 20px;color:#fff}
.conformant{background:#1a7f37}.partial{background:#bf8700}.nonconformant{background:#cf222e}.error{background:#9a6700}
.meta{opacity:.9;font-size:13px}
table{border-collapse:collapse;width:100%;background:#fff;font-size:13px}
th,td{border:1px solid #d0d7de;padding:4px 8px;text-align:left;vertical-align:top}
th{background:#eaeef2}
.passed{color:#1a7f37}.failed{color:#cf222e;font-weight:600}.skipped,.untested,.inapplicable{color:#57606a}.error-s{color:#9a6700}
.card{background:#fff;border:1px solid #d0d7de;border-left:4px solid #cf222e;border-radius:6px;padding:12px 16px;margin:12px 0}
pre{background:#f6f8fa;border:1px solid #d0d7de;border-radius:6px;padding:8px;overflow:auto;white-space:pre-wrap;word-break:break-word;font-size:12px}
code{font-family:ui-monospace,SFMono-Regular,Menlo,monospace}
.toc{background:#fff;border:1px solid #d0d7de;border-radius:6px;padding:8px 16px;margin:16px 0;font-size:13px}.toc a{margin-right:14px}
.lv{display:inline-block;border-radius:10px;padding:0 8px;font-size:12px;font-weight:600;color:#fff}
.lv-must{background:#8250df}.lv-should{background:#0969da}.lv-info{background:#6e7781}
.status{display:inline-block;border-radius:4px;padding:0 6px;background:#ffebe9;color:#cf222e;font-weight:700;font-family:ui-monospace,SFMono-Regular,Menlo,monospace}
.status.as-expected{background:#eaeef2;color:#24292f;font-weight:400}
.card.blocked{border-left-color:#9a6700}
details>summary{cursor:pointer;color:#57606a;margin:4px 0}
`;

/** What a section of a run that ran no check says, in place of its counts. */
const NONE_RAN = 'No check ran: the run stopped before its checks (the verdict above says why).';

/**
 * report.json as one self-contained HTML page: inline style, no script, no fonts, no
 * requests. The verdict first, a table of contents, the root causes, counts by level, the
 * failures (the received status highlighted; long exchanges folded in <details>), the
 * must checks not evaluated, the requirement matrix, every check (levels in distinct
 * colours), and what is out of scope.
 */
export function renderHtml(report: Report): string {
  const strict = report.settings.strict;
  // Those that decide the verdict first (one policy: verdict.ts), each marked.
  const failures = report.checks.filter((check) => check.status === 'failed').sort(byWeight(strict));
  const mustErrors = report.checks.filter((check) => check.status === 'error' && check.level === 'must');
  const statusClass = (status: string) => (status === 'error' ? 'error-s' : status);
  const levels: CheckLevel[] = ['must', 'should', 'info'];
  const basis = partialBasis(report);
  // Counts of what ran read `not run` when nothing did (a refused key): never a `(0)` that looks like a clean result.
  const none = noCheckRan(report);
  const count = (n: number) => (none ? ': not run' : ` (${n})`);
  return `<!DOCTYPE html>
<html lang="en">
<head>
<meta charset="utf-8">
<meta name="viewport" content="width=device-width, initial-scale=1">
<title>Pet Store conformance: ${e(report.verdict)}</title>
<style>${STYLE}</style>
</head>
<body>
<main>
<section class="verdict ${e(bannerOf(report))}">
<h1>${e(report.headline)}</h1>
<div>${e(report.verdictReason)}</div>${basis ? `\n<div>${e(basis)}</div>` : ''}
<div class="meta">${report.target.kind === 'traffic' ? `captured traffic of ${e(report.target.baseUrl)} judged; the tool sent nothing` : `${e(report.target.baseUrl)} · profile ${e(report.settings.profile)} · seed ${e(report.settings.seed)}`} · ${e(report.startedAt)} · ${report.target.kind === 'traffic' ? '' : `${e(report.summary.requests)} requests in `}${e((report.durationMs / 1000).toFixed(2))} s · ${e(report.tool.name)} ${e(report.tool.version)}, spec ${e(report.spec.version)}</div>${report.traffic ? `\n<div class="meta">Traffic: ${e(trafficWords(report.traffic))}</div>` : ''}
</section>

<nav class="toc"><a href="#root-causes">${none ? 'Root causes and failures: not run' : `Root causes (${report.findings.length}) and failures (${failures.length})`}</a><a href="#levels">Checks by level</a><a href="#not-evaluated">Not evaluated${count(mustErrors.length)}</a><a href="#requirements">Requirements</a><a href="#checks">All checks</a><a href="#scope">Out of scope</a><a href="#written">Written</a></nav>

<h2 id="root-causes">${none ? 'Root causes and failures: not run' : `Root causes (${report.findings.length}) and failures (${failures.length})`}</h2>
${none ? `<p>${NONE_RAN}</p>` : report.findings.length === 0 ? '<p>None.</p>' : report.findings.map((finding) => rootCause(finding, failures, strict)).join('\n')}

<h2 id="levels">Checks by level</h2>
${report.checks.length === 0 ? `<p>${NONE_RAN}</p>` : `<table><tr><th>Level</th><th>Passed</th><th>Failed</th><th>Error</th><th>Skipped</th></tr>
${levels.map((level) => {
  const c = report.summary.byLevel[level];
  return `<tr><td>${levelBadge(level)}</td><td class="passed">${c.passed}</td><td class="failed">${c.failed}</td><td>${c.error}</td><td>${c.skipped}</td></tr>`;
}).join('\n')}
</table>`}

<h2 id="not-evaluated">Must checks not evaluated${count(mustErrors.length)}</h2>
${none ? `<p>${NONE_RAN}</p>` : mustErrors.length === 0 ? '<p>None.</p>' : mustErrors.map((c) => `<div class="card blocked"><div><code>${e(c.id)}</code> · ${e(c.clause)} · ${levelBadge(c.level)}</div><div><strong>${e(c.title)}</strong></div><div>${e(c.reason ?? '')}</div></div>`).join('\n')}

<h2 id="requirements">Requirements</h2>
<table><tr><th>Requirement</th><th>Clause</th><th>Level</th><th>Outcome</th><th>Checks</th><th>Statement</th></tr>
${report.requirements.map((r) => `<tr><td><code>${e(r.id)}</code></td><td>${e(r.clause)}</td><td>${e(r.level)}</td><td class="${e(r.outcome)}">${e(r.outcome)}</td><td>${r.checks.map((c) => `<code class="${statusClass(c.status)}">${e(c.id)}</code>`).join(' ') || e(r.inapplicable ?? '')}</td><td>${e(r.quote)}</td></tr>`).join('\n')}
</table>

<h2 id="checks">All checks${report.checks.length === 0 ? ': not run' : ` (${report.checks.length})`}</h2>
${report.checks.length === 0 ? `<p>${NONE_RAN}</p>` : `<table><tr><th>Check</th><th>Clause</th><th>Level</th><th>Status</th><th>Requests</th><th>ms</th><th>What holds when it passes</th></tr>
${report.checks.map((c) => `<tr><td><code>${e(c.id)}</code></td><td>${e(c.clause)}</td><td>${levelBadge(c.level)}</td><td class="${statusClass(c.status)}">${e(c.status)}${c.reason ? `: ${e(c.reason)}` : ''}</td><td>${c.requests}</td><td>${c.durationMs}</td><td>${e(c.title)}</td></tr>`).join('\n')}
</table>`}

<h2 id="scope">Out of scope (the spec marks these "not shown")</h2>
<ul>${report.outOfScope.map((o) => `<li>${e(o.clause)}: ${e(o.what)}</li>`).join('')}</ul>

<h2 id="written">Written to the target</h2>
<p>${e(report.created.length)} categories created (listed in report.json, with their ids).</p>
</main>
</body>
</html>
`;
}

/**
 * Where a counterexample came from: the coverage phase (one of the inputs sent before any
 * generated one, nothing shrunk) or a generated run (fast-check's path, runs and shrinks).
 */
function counterexampleHeading(property: PropertyRecord): string {
  if (property.path === undefined && property.numRuns === 0) return `Counterexample: a coverage input, sent before any generated one (seed ${property.seed})`;
  return `Counterexample (seed ${property.seed}, path ${property.path ?? 'none'}, ${property.numRuns} run${property.numRuns === 1 ? '' : 's'}, ${property.numShrinks} shrink${property.numShrinks === 1 ? '' : 's'})`;
}

/** The level as a coloured badge: must, should and info are told apart at a glance. */
const levelBadge = (level: CheckLevel) => `<span class="lv lv-${level}">${level}</span>`;

/** Exchanges longer than this (characters) are folded into a <details>. */
const FOLDED_CHARS = 1500;

/**
 * One root cause, once: what deviates and where, its checks (each a link to its card), the
 * evidence of the check that weighs most, and the other checks' evidence folded below it.
 * @param failures every failed check, those that decide the verdict first (byWeight).
 */
function rootCause(finding: Finding, failures: readonly CheckResult[], strict: boolean): string {
  const checks = failures.filter((check) => finding.checks.includes(check.id));
  const [first, ...others] = checks;
  const card = (check: CheckResult) => failureCard(check, countsForVerdict(check, strict));
  return `<section class="cause" id="${e(finding.id)}">
<h3>${e(finding.id)} · ${e(finding.summary)}</h3>
<div>${e(checks.length)} check${checks.length === 1 ? '' : 's'}: ${checks.map((check) => `<a href="#${e(check.id)}"><code>${e(check.id)}</code></a>`).join(' ')}</div>
${first ? card(first) : ''}
${others.length > 0 ? `<details><summary>the evidence of the ${e(others.length)} other check${others.length === 1 ? '' : 's'}</summary>\n${others.map(card).join('\n')}\n</details>` : ''}
</section>`;
}

/** @param counts whether the failure decides the verdict (countsForVerdict). */
function failureCard(check: CheckResult, counts: boolean): string {
  const property = check.property;
  const failure = check.failure!;
  const received = failure.response ? `HTTP ${failure.response.status}` : failure.error ? `no response: ${failure.error.code}` : '';
  // Red only when the HTTP status (or its absence) is the deviation: a 201 with a wrong body was
  // the right status, and so is a 400 whose Error body's status field is wrong ("status field 200").
  const statusDeviates = !failure.response || failure.found === undefined || /^status \d{3}(?!\d)/.test(failure.found);
  const text = failureText(check, true);
  const exchange = text.length > FOLDED_CHARS
    ? `<details><summary>the whole exchange (${e(text.length)} characters)</summary><pre>${e(text)}</pre></details>`
    : `<pre>${e(text)}</pre>`;
  return `<div class="card" id="${e(check.id)}">
<div><code>${e(check.id)}</code> · ${e(check.clause)} · ${levelBadge(check.level)} · ${counts ? 'fails the run' : 'not counted in the verdict'}${check.reference ? ` · ${e(check.reference)}` : ''}${received ? ` · received <span class="${statusDeviates ? 'status' : 'status as-expected'}">${e(received)}</span>` : ''}</div>
<div><strong>${e(check.title)}</strong></div>
<div>${e(failure.message.split('\n')[0]!)}</div>
${exchange}
${property?.counterexample ? `<div>${e(counterexampleHeading(property))}:</div><pre>${e(property.counterexample)}</pre>` : ''}
${property?.replay ? `<div>Replay:</div><pre>${e(property.replay)}</pre>` : ''}
</div>`;
}
