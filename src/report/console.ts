import { styleText } from 'node:util';
import { shownProxy } from '../config/proxy.js';
import { outcomeLine, requestLine, type Exchange } from '../core/exchange.js';
import { NOT_SELECTED } from '../check/reasons.js';
import type { CheckLevel, CheckStatus } from '../check/types.js';
import type { RunSettings } from '../config/settings.js';
import type { CheckResult, Report } from './model.js';
import { trafficWords } from './traffic-words.js';
import { visible } from './visible.js';
import { gateLines } from './gate.js';
import { bannerOf, countsForVerdict, partialBasis } from './verdict.js';

type Style = Parameters<typeof styleText>[0];


/** Renders check results and the final summary as console lines. */
export class ConsoleFormat {
  /**
   * @param color whether to colour the lines.
   * @param strict whether should failures count for the verdict (`--strict`): a failure
   *   that does not is marked so (one policy: verdict.ts countsForVerdict).
   */
  constructor(
    private readonly color: boolean,
    private readonly strict = false,
  ) {}

  #paint(style: Style, text: string): string {
    return this.color ? styleText(style, text) : text;
  }

  /** The run's first line. */
  header(settings: RunSettings, version: string): string {
    const what = settings.targetKind === 'embedded' ? ' (embedded reference server)' : '';
    const proxy = shownProxy(settings);
    const via = proxy ? `\n  through the proxy ${proxy.url} (${proxy.variable}${proxy.noProxy ? `; directly if NO_PROXY matches: ${proxy.noProxy}` : ''})` : '';
    return `petstore-conformance ${version}: checking ${settings.baseUrl}${what}, profile ${settings.profile}, seed ${settings.seed}${via}\n`;
  }

  /**
   * One finished check, with the failing exchange or the reason when it did not pass;
   * nothing for a check a filter left out (the summary counts those).
   */
  check(result: CheckResult): string | undefined {
    if (result.status === 'skipped' && result.reason === NOT_SELECTED) return undefined;
    const mark: Record<CheckStatus, string> = {
      passed: this.#paint('green', '✓'),
      failed: this.#paint('red', '✗'),
      skipped: this.#paint('gray', '-'),
      error: this.#paint('yellow', '!'),
    };
    const traffic = result.traffic ? `${result.traffic.exchanges} captured exchange${result.traffic.exchanges === 1 ? '' : 's'}` : undefined;
    const cost = traffic === undefined ? `${result.durationMs} ms` : result.traffic!.alone ? `judged on ${traffic}` : `${result.durationMs} ms, and ${traffic}`;
    const line = `  ${mark[result.status]} ${result.level.padEnd(6)} ${result.clause.padEnd(7)} ${result.id} ${this.#paint('gray', `— ${result.title} (${cost})`)}`;
    // Server text reaches every line below: made visible, so no escape sequence reaches the terminal.
    const detail: string[] = [];
    if (result.failure) {
      if (!countsForVerdict(result, this.strict)) detail.push(this.#paint('gray', `${result.level} finding, not counted in the verdict${result.level === 'should' ? ' (--strict counts it)' : ''}`));
      detail.push(...result.failure.message.split('\n').map((line) => this.#paint('red', visible(line))));
      if (result.failure.request.url) {
        const exchange = { request: result.failure.request, response: result.failure.response, error: result.failure.error };
        const by = result.failure.checkId ? ` (sent by ${result.failure.checkId})` : '';
        detail.push(`${requestLine(exchange)} → ${outcomeLine(exchange as never)}${by}`);
        const body = result.failure.response?.body;
        if (body) detail.push(`body: ${visible(body.length > 200 ? `${body.slice(0, 200)}…` : body)}`);
      }
    } else if (result.reason) {
      detail.push(`${result.status}: ${visible(result.reason)}`);
    }
    for (const observation of result.observations ?? []) detail.push(this.#paint('cyan', `observed: ${visible(observation)}`));
    return [line, ...detail.map((text) => `        ${text}`)].join('\n');
  }

  /** Every exchange of a check, one line each (`--verbose`): request line, outcome, superseded attempts marked. */
  exchanges(exchanges: readonly Exchange[]): string {
    return exchanges
      .map((exchange) => `        ${exchange.superseded ? this.#paint('gray', '(superseded) ') : ''}${requestLine(exchange)} [${exchange.credential}] → ${visible(outcomeLine(exchange))} (${exchange.durationMs} ms)`)
      .join('\n');
  }

  /** The verdict (and the gate): with where the reports went, all that `--quiet` prints. */
  verdict(report: Report): string {
    const banner = bannerOf(report);
    const verdictStyle: Style = banner === 'conformant' ? 'green' : banner === 'nonconformant' ? 'red' : 'yellow';
    const basis = partialBasis(report);
    return [
      `Verdict: ${this.#paint(['bold', verdictStyle], report.headline)}: ${visible(report.verdictReason)}`,
      ...(basis ? [basis] : []),
      ...(report.gate ? gateLines(report.gate) : []),
    ].join('\n');
  }

  /** Counts by level and status, and the verdict. */
  summary(report: Report): string {
    const levels: CheckLevel[] = ['must', 'should', 'info'];
    const rows = levels.map((level) => {
      const counts = report.summary.byLevel[level];
      const parts = (['passed', 'failed', 'error', 'skipped'] as const)
        .filter((status) => counts[status] > 0)
        .map((status) => `${counts[status]} ${status}`);
      return `  ${level.padEnd(6)} ${parts.length > 0 ? parts.join(', ') : 'none'}`;
    });
    const causes = report.findings.map((finding) => {
      const shown = finding.checks.length > 4 ? `${finding.checks.slice(0, 4).join(', ')}, …` : finding.checks.join(', ');
      return `  ${finding.id.padEnd(4)} ${this.#paint('red', `${finding.checks.length} check${finding.checks.length === 1 ? '' : 's'}`)}: ${visible(finding.summary)} (${shown})`;
    });
    return [
      ...(causes.length > 0 ? ['', 'Root causes', ...causes] : []),
      '',
      'Checks',
      ...rows,
      ...(report.target.kind === 'traffic' ? [] : [`Requests: ${report.summary.requests} sent, ${report.summary.requestsAnswered} answered, in ${(report.durationMs / 1000).toFixed(2)} s`]),
      ...(report.traffic ? [`Traffic: ${trafficWords(report.traffic)}, in ${(report.durationMs / 1000).toFixed(2)} s`, ...droppedLines(report.traffic)] : []),
      this.verdict(report),
    ].join('\n');
  }
}


/** Bodies of a capture listed on the console, at most: the rest are in report.json (`traffic.dropped`). */
const DROPPED_SHOWN = 10;

/** Each body the capture did not keep, and each entry not readable as HAR, with why: never judged, never guessed. */
function droppedLines(traffic: NonNullable<Report['traffic']>): string[] {
  const dropped = traffic.dropped ?? [];
  const total = Object.values(traffic.missing).reduce((sum, count) => sum + count, 0);
  const lines = dropped.slice(0, DROPPED_SHOWN).map(({ exchange, body, reason }) => `  not judged: #${exchange} ${body}: ${visible(reason)}`);
  if (total > lines.length) lines.push(`  … ${total - lines.length} more bodies not kept (report.json: traffic.dropped lists the first ${dropped.length})`);
  const invalid = traffic.invalid;
  if (invalid) {
    lines.push(...invalid.listed.slice(0, DROPPED_SHOWN).map(({ file, entry, reason }) => `  not read: ${file} entry ${entry}: ${visible(reason)}`));
    const shown = Math.min(invalid.listed.length, DROPPED_SHOWN);
    if (invalid.entries > shown) lines.push(`  … ${invalid.entries - shown} more entries not read (report.json: traffic.invalid lists the first ${invalid.listed.length})`);
  }
  return lines;
}
