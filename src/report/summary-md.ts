import type { CheckLevel } from '../check/types.js';
import { escape } from 'he';
import type { Report } from './model.js';
import { visible } from './visible.js';
import { gateLines } from './gate.js';
import { byWeight, failsRun } from './verdict.js';
import { replayCommand } from '../config/replay.js';
import { trafficWords } from './traffic-words.js';

/**
 * Server text as Markdown cell text: one line, HTML escaped (he), Markdown's punctuation
 * escaped with backslashes, controls made visible: it renders as the text it is.
 */
export const cell = (text: string) => escape(visible(text)).replace(/[\\`*_{}[\]()#+!|~]/g, '\\$&').replace(/\r?\n/g, ' ');

/**
 * A short Markdown summary for CI job summaries and pull-request comments: the verdict,
 * counts by level, the failed must checks with their clause and first line, the
 * requirement outcomes, and how to replay the run.
 */
export function renderSummary(report: Report): string {
  const icon = { conformant: '✅', nonconformant: '❌', error: '⚠️' }[report.verdict];
  const lines = [
    `## ${icon} Pet Store conformance: ${cell(report.headline)}`,
    '',
    `${cell(report.verdictReason)}`,
    '',
    ...(report.gate ? [...gateLines(report.gate).map((line) => `${cell(line)}  `), ''] : []),
    report.target.kind === 'traffic'
      ? `Traffic of \`${report.target.baseUrl}\`: nothing sent`
      : `Target \`${report.target.baseUrl}\` · profile \`${report.settings.profile}\` · seed \`${report.settings.seed}\` · ${report.summary.requests} requests in ${(report.durationMs / 1000).toFixed(1)} s`,
    ...(report.traffic ? ['', `Traffic: ${cell(trafficWords(report.traffic))}`] : []),
    '',
    '| Level | Passed | Failed | Error | Skipped |',
    '|---|---:|---:|---:|---:|',
    ...(['must', 'should', 'info'] as CheckLevel[]).map((level) => {
      const c = report.summary.byLevel[level];
      return `| ${level} | ${c.passed} | ${c.failed} | ${c.error} | ${c.skipped} |`;
    }),
  ];
  if (report.findings.length > 0) {
    lines.push('', '### Root causes', '', '| Finding | Deviation | Checks |', '|---|---|---|');
    for (const finding of report.findings) lines.push(`| ${finding.id} | ${cell(finding.summary)} | ${finding.checks.length}: ${finding.checks.map((id) => `\`${id}\``).join(', ')} |`);
  }
  const strict = report.settings.strict ?? false;
  const failed = report.checks.filter((check) => failsRun(check, strict)).sort(byWeight(strict));
  if (failed.length > 0) {
    lines.push('', `### Failed checks that decide the verdict${strict ? ' (--strict: should checks count)' : ''}`, '', '| Check | Level | Clause | Finding |', '|---|---|---|---|');
    for (const check of failed) lines.push(`| \`${check.id}\` | ${check.level} | ${check.clause} | ${cell(check.failure!.message.split('\n')[0]!)} |`);
  }
  const outcomes = new Map<string, number>();
  for (const requirement of report.requirements) outcomes.set(requirement.outcome, (outcomes.get(requirement.outcome) ?? 0) + 1);
  lines.push(
    '',
    `Requirements: ${[...outcomes].map(([outcome, n]) => `${n} ${outcome}`).join(', ')} (of ${report.requirements.length}).`,
    '',
    ...(report.target.kind === 'traffic' ? [] : [`Replay: \`${replayCommand(report.settings, report.target.kind === 'external' ? report.target.baseUrl : undefined)}\``, '']),
  );
  return lines.join('\n');
}
