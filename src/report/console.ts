import { styleText } from 'node:util';
import sliceAnsi from 'slice-ansi';
import stringWidth from 'string-width';
import wrapAnsi from 'wrap-ansi';
import { shownProxy } from '../config/proxy.js';
import { countOf } from '../core/words.js';
import { cutBetweenCharacters, outcomeLine, requestLine, type Exchange } from '../core/exchange.js';
import { NOT_SELECTED } from '../check/reasons.js';
import type { CheckLevel } from '../check/types.js';
import type { RunSettings } from '../config/settings.js';
import { commandLength, curlParts, reproducing } from './curl.js';
import { DEFAULT_COMMAND, shellWords } from '../config/replay.js';
import type { CheckResult, Finding, Report } from './model.js';
import { lexemeAt } from '../json/lossless.js';
import { trafficWords } from './traffic-words.js';
import { visible } from './visible.js';
import { gateLines } from './gate.js';
import { bannerOf, countsForVerdict, partialBasis } from './verdict.js';

type Style = Parameters<typeof styleText>[0];


/** Where a root cause's lines below its first start (under its summary, past `  F1   `). */
const CAUSE_INDENT = 7;

/** Characters of a failing response's body the console shows (report.html and report.json hold it whole). */
const BODY_SHOWN = 200;
/** Characters of a `Reproduce:` command the console shows at most: past it (a large body), the reports hold it. */
const COMMAND_SHOWN = 2_000;

/** Columns a line takes at most off a terminal (a CI log, a pipe): one a reader can see whole. */
export const PLAIN_WIDTH = 100;

/**
 * The mark of a check's outcome, by its level: a must failure is a red ✗; a should finding
 * `!` and an info finding `i`, each of its own colour (they fail no run unless `--strict`
 * makes should count); `?` a check that could not be judged.
 */
export function markOf(result: Pick<CheckResult, 'status' | 'level'>): { glyph: string; style: Style } {
  if (result.status === 'failed') return result.level === 'must' ? { glyph: '✗', style: 'red' } : result.level === 'should' ? { glyph: '!', style: 'yellow' } : { glyph: 'i', style: 'cyan' };
  return { passed: { glyph: '✓', style: 'green' as Style }, skipped: { glyph: '-', style: 'gray' as Style }, error: { glyph: '?', style: 'yellow' as Style } }[result.status as 'passed' | 'skipped' | 'error'];
}

/** `text` cut to `width` columns (wide characters count two, colours none), ending with … when cut. */
export function fitted(text: string, width: number): string {
  if (stringWidth(text) <= width) return text;
  // slice-ansi counts characters: a wide one takes two columns, so the cut may need to go back one more.
  let end = width - 1;
  while (end > 0 && stringWidth(sliceAnsi(text, 0, end)) > width - 1) end--;
  return `${sliceAnsi(text, 0, end)}…`;
}

/** Columns a check's title needs at least to be shown (`— a…`): fewer, and only its cost is. */
const MIN_TITLE = 4;

/** Renders check results and the final summary as console lines. */
export class ConsoleFormat {
  /**
   * @param color whether to colour the lines.
   * @param strict whether should failures count for the verdict (`--strict`): a failure
   *   that does not is marked so (one policy: verdict.ts countsForVerdict).
   * @param width columns a line may take: the terminal's, or {@link PLAIN_WIDTH} off one.
   */
  constructor(
    private readonly color: boolean,
    private readonly strict = false,
    private readonly width = PLAIN_WIDTH,
  ) {}

  #paint(style: Style, text: string): string {
    return this.color ? styleText(style, text) : text;
  }

  /** A line wrapped to the width, its continuation lines indented by `indent` spaces. */
  #wrapped(text: string, indent = 2): string {
    const [first = '', ...rest] = wrapAnsi(text, this.width, { hard: true, trim: false }).split('\n');
    const continued = rest.length > 0 ? wrapAnsi(rest.join(' ').trimStart(), Math.max(20, this.width - indent), { hard: true }).split('\n') : [];
    return [first.trimEnd(), ...continued.map((line) => `${' '.repeat(indent)}${line}`)].join('\n');
  }

  /** A detail line under a check, wrapped to the width at its indent (`indent` spaces). */
  #detail(text: string, style?: Style, indent = 8): string {
    const wrapped = wrapAnsi(text, Math.max(20, this.width - indent), { hard: true });
    return wrapped
      .split('\n')
      .map((line) => `${' '.repeat(indent)}${style ? this.#paint(style, line) : line}`)
      .join('\n');
  }

  /** The run's first line (the check lines follow after a blank one: {@link check}'s `first`). */
  header(settings: RunSettings, version: string): string {
    const what = settings.targetKind === 'embedded' ? ' (embedded reference server)' : '';
    const proxy = shownProxy(settings);
    const via = proxy ? `\n  through the proxy ${proxy.url} (${proxy.variable}${proxy.noProxy ? `; directly if NO_PROXY matches: ${proxy.noProxy}` : ''})` : '';
    const unverified = settings.insecure ? ', TLS not verified (--insecure)' : '';
    // A read-only profile taken by default (any target off loopback) says so: the creates go untested unless one is chosen.
    const chosen = settings.profile === 'read-only' && settings.profileSource === 'default' && settings.targetKind !== 'embedded' ? ' (the default for a target not on loopback)' : '';
    return `${this.#wrapped(`petstore-conformance ${version}: checking ${settings.baseUrl}${what}, profile ${settings.profile}${chosen}, seed ${settings.seed}${unverified}`)}${via}`;
  }

  /**
   * One finished check, with the failing exchange or the reason when it did not pass;
   * nothing for a skipped check (the run folds those into a line per reason:
   * {@link skipped}). The check's line fits the width, its title cut; what it found wraps.
   * @param place `first`: the run's first check line (a blank line sets the checks apart
   *   from the header); `sameAs`: the check whose failure, printed above, has the same root
   *   cause (findings.ts causeKey): its evidence is not printed again.
   */
  check(result: CheckResult, place: { first?: boolean; sameAs?: string } = {}): string | undefined {
    if (result.status === 'skipped') return undefined;
    const { glyph, style } = markOf(result);
    const traffic = result.traffic ? `${result.traffic.exchanges} captured exchange${result.traffic.exchanges === 1 ? '' : 's'}` : undefined;
    const cost = traffic === undefined ? `${result.durationMs} ms` : result.traffic!.alone ? `judged on ${traffic}` : `${result.durationMs} ms, and ${traffic}`;
    const head = `  ${glyph} ${result.level.padEnd(6)} ${result.clause.padEnd(7)} ${result.id} `;
    // The title is cut, never the cost after it; too narrow a line for any of it drops it.
    const room = this.width - stringWidth(head) - cost.length - 3;
    const title = `${room >= MIN_TITLE ? `${fitted(`— ${result.title}`, room)} ` : ''}(${cost})`;
    const line = `  ${this.#paint(style, glyph)}${head.slice(3)}${this.#paint('gray', title)}`;
    // Server text reaches every line below: made visible, so no escape sequence reaches the terminal.
    const detail: string[] = [];
    const failure = result.failure;
    if (failure) {
      if (!countsForVerdict(result, this.strict)) detail.push(this.#detail(`${result.level} finding, not counted in the verdict${result.level === 'should' ? ' (--strict counts it)' : ''}`, 'gray'));
      const accent = result.level === 'must' ? 'red' : style;
      if (place.sameAs) {
        detail.push(this.#detail(visible(`the same root cause as ${place.sameAs}: ${failure.found}`), accent));
      } else {
        detail.push(...failure.message.split('\n').map((line) => this.#detail(visible(line), accent)));
        if (failure.request.url) detail.push(...this.#evidence(failure));
      }
    } else if (result.reason) {
      detail.push(this.#detail(`${result.status}: ${visible(result.reason)}`));
    }
    for (const observation of result.observations ?? []) detail.push(this.#detail(`observed: ${visible(observation)}`, 'cyan'));
    return [...(place.first ? [''] : []), line, ...detail].join('\n');
  }

  /**
   * One root cause, once: what deviates and where, every check it fails, and the curl
   * command of its shortest counterexample (`Reproduce:`), broken across lines to fit.
   * @param checks the finding's checks, in its order.
   */
  #rootCause(finding: Finding, checks: readonly CheckResult[], replay: Replay): string {
    const level = (['must', 'should', 'info'] as const).find((candidate) => checks.some((check) => check.level === candidate))!;
    const { style } = markOf({ status: 'failed', level });
    const count = `${checks.length} check${checks.length === 1 ? '' : 's'}`;
    const head = [
      this.#wrapped(`  ${finding.id.padEnd(4)} ${visible(finding.summary)}`, CAUSE_INDENT),
      this.#detail(`${this.#paint(style, count)}: ${finding.checks.join(', ')}`, undefined, CAUSE_INDENT),
    ];
    const shortest = reproducing(checks.map((check) => check.failure));
    if (!shortest) return head.join('\n');
    // Every counterexample went in chunks: curl sends a body in one piece, so the tool's replay sends the same pieces.
    if (shortest.replay) {
      const pieces = shortest.request.chunks!.length;
      const tool = replay.file ? [this.#command('Reproduce: ', [replay.command, 'replay', shellWords([replay.file]), finding.id], CAUSE_INDENT)] : [];
      const label = `${replay.file ? 'With curl' : 'Reproduce with curl'} (one chunk, not ${pieces}): `;
      return [...head, ...tool, this.#command(label, curlParts(shortest.request).map(visible), CAUSE_INDENT)].join('\n');
    }
    return [...head, this.#reproduce(curlParts(shortest.request))].join('\n');
  }

  /** A root cause's `Reproduce:` command, or where to find it when it is too long for a terminal (a large body: the reports hold it whole). */
  #reproduce(parts: readonly string[]): string {
    const length = commandLength(parts);
    if (length > COMMAND_SHOWN) return this.#wrapped(`${' '.repeat(CAUSE_INDENT)}Reproduce: a command of ${length} characters (a large body): in report.html and report.json`, CAUSE_INDENT);
    return this.#command('Reproduce: ', parts.map(visible), CAUSE_INDENT);
  }

  /**
   * A shell command after `label`, broken between its parts with ` \` continuations (sh
   * reads them as one line) so that each line fits the width; a part longer than a line
   * stands alone on its own. Each part is measured once.
   */
  #command(label: string, parts: readonly string[], indent: number): string {
    const lines: string[] = [];
    let line = `${' '.repeat(indent)}${label}${parts[0] ?? ''}`;
    let width = stringWidth(line);
    for (const part of parts.slice(1)) {
      const needs = stringWidth(part);
      // Room for the part, its space, and the continuation ` \`.
      if (width + 1 + needs + 2 <= this.width) {
        line = `${line} ${part}`;
        width += 1 + needs;
        continue;
      }
      lines.push(`${line} \\`);
      line = `${' '.repeat(indent + 2)}${part}`;
      width = indent + 2 + needs;
    }
    return [...lines, line].join('\n');
  }

  /** A failure's exchange in a few lines: request and outcome, the body (its start), and where in it the deviation lies. */
  #evidence(failure: NonNullable<CheckResult['failure']>): string[] {
    const exchange = { request: failure.request, response: failure.response, error: failure.error };
    const by = failure.checkId ? ` (sent by ${failure.checkId})` : '';
    const lines = [this.#detail(`${requestLine(exchange)} → ${outcomeLine(exchange as never)}${by}`)];
    const body = failure.response?.body;
    if (body) lines.push(this.#detail(`body: ${visible(body.length > BODY_SHOWN ? `${cutBetweenCharacters(body, BODY_SHOWN)}…` : body)}`));
    const at = body && failure.pointer !== undefined ? lexemeAt(body, failure.pointer) : undefined;
    if (at !== undefined) lines.push(this.#detail(visible(`at ${failure.pointer}: ${at}`), 'yellow'));
    return lines;
  }

  /**
   * The skipped checks, one line per reason (those a filter left out are the summary's):
   * `  - 33 checks skipped: untested (profile read-only)`; undefined when there are none.
   */
  skipped(results: readonly CheckResult[]): string | undefined {
    const byReason = new Map<string, number>();
    for (const result of results) {
      if (result.status !== 'skipped' || result.reason === NOT_SELECTED) continue;
      const reason = result.reason ?? 'skipped';
      byReason.set(reason, (byReason.get(reason) ?? 0) + 1);
    }
    if (byReason.size === 0) return undefined;
    return [...byReason]
      .map(([reason, count]) => fitted(`  ${this.#paint('gray', '-')} ${count} check${count === 1 ? '' : 's'} skipped: ${visible(reason)}`, this.width))
      .join('\n');
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
      this.#wrapped(`Verdict: ${this.#paint(['bold', verdictStyle], report.headline)}: ${visible(report.verdictReason)}`),
      ...(basis ? [basis] : []),
      ...(report.gate ? gateLines(report.gate) : []),
    ].join('\n');
  }

  /**
   * The skipped checks folded by reason, the root causes, counts by level and status, and
   * the verdict; the verdict alone when nothing was judged (an unreachable target, a key
   * refused, a base URL where no service answers): its one line says why.
   * @param reportFile the report.json the run writes, when it writes one: a root cause whose
   *   body went in chunks is reproduced by `replay` of it.
   */
  summary(report: Report, reportFile?: string): string {
    if (report.checks.length === 0 && !report.traffic) return this.verdict(report);
    const replay: Replay = { command: report.tool.command ?? DEFAULT_COMMAND, ...(reportFile ? { file: reportFile } : {}) };
    const levels: CheckLevel[] = ['must', 'should', 'info'];
    const rows = levels.map((level) => {
      const counts = report.summary.byLevel[level];
      const parts = (['passed', 'failed', 'error', 'skipped'] as const)
        .filter((status) => counts[status] > 0)
        .map((status) => `${counts[status]} ${status}`);
      return `  ${level.padEnd(6)} ${parts.length > 0 ? parts.join(', ') : 'none'}`;
    });
    const byId = new Map(report.checks.map((check) => [check.id, check]));
    const causes = report.findings.map((finding) => this.#rootCause(finding, finding.checks.map((id) => byId.get(id)!), replay));
    const skipped = this.skipped(report.checks);
    return [
      ...(skipped ? ['', skipped] : []),
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


/** How a root cause's replay runs the tool: its command, and the report.json it reads (absent: no report written). */
interface Replay {
  command: string;
  file?: string;
}


/** Bodies of a capture listed on the console, at most: the rest are in report.json (`traffic.dropped`). */
const DROPPED_SHOWN = 10;

/** Each body the capture did not keep, and each entry not readable as HAR, with why: never judged, never guessed. */
function droppedLines(traffic: NonNullable<Report['traffic']>): string[] {
  const dropped = traffic.dropped ?? [];
  const total = Object.values(traffic.missing).reduce((sum, count) => sum + count, 0);
  const lines = dropped.slice(0, DROPPED_SHOWN).map(({ exchange, body, reason }) => `  not judged: #${exchange} ${body}: ${visible(reason)}`);
  if (total > lines.length) lines.push(`  … ${countOf(total - lines.length, 'more body', 'more bodies')} not kept (report.json: traffic.dropped lists the first ${dropped.length})`);
  const invalid = traffic.invalid;
  if (invalid) {
    lines.push(...invalid.listed.slice(0, DROPPED_SHOWN).map(({ file, entry, reason }) => `  not read: ${file} entry ${entry}: ${visible(reason)}`));
    const shown = Math.min(invalid.listed.length, DROPPED_SHOWN);
    if (invalid.entries > shown) lines.push(`  … ${countOf(invalid.entries - shown, 'more entry', 'more entries')} not read (report.json: traffic.invalid lists the first ${invalid.listed.length})`);
  }
  return lines;
}
