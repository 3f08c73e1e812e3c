import type { CheckLevel } from '../check/types.js';
import { replayCommand } from '../config/replay.js';
import { gateLines } from './gate.js';
import { code, heading, markdown, paragraph, table, text } from './markdown.js';
import type { Report } from './model.js';
import { trafficWords } from './traffic-words.js';
import { bannerOf, byWeight, failsRun, partialBasis } from './verdict.js';
import type { RootContent } from 'mdast';

/**
 * A short Markdown summary for CI job summaries and pull-request comments: the verdict,
 * counts by level, the root causes, the failed checks that decide the verdict with their
 * clause and first line, the requirement outcomes, and how to replay the run. Written as
 * an mdast tree (markdown.ts): every text is escaped for where it stands.
 */
export function renderSummary(report: Report): string {
  const icon = { conformant: '✅', partial: '🟡', nonconformant: '❌', error: '⚠️' }[bannerOf(report)];
  const basis = partialBasis(report);
  const strict = report.settings.strict;
  const where =
    report.target.kind === 'traffic'
      ? paragraph(text('Captured traffic of '), code(report.target.baseUrl), text(' judged; the tool sent nothing'))
      : paragraph(
          text('Target '),
          code(report.target.baseUrl),
          text(' · profile '),
          code(report.settings.profile),
          text(' · seed '),
          code(String(report.settings.seed)),
          text(` · ${report.summary.requests} requests in ${(report.durationMs / 1000).toFixed(1)} s`),
        );
  const blocks: RootContent[] = [
    heading(2, text(`${icon} Pet Store conformance: ${report.headline}`)),
    paragraph(text(report.verdictReason)),
    ...(basis ? [paragraph(text(basis))] : []),
    ...(report.gate ? gateLines(report.gate).map((line) => paragraph(text(line))) : []),
    where,
    ...(report.traffic ? [paragraph(text(`Traffic: ${trafficWords(report.traffic)}`))] : []),
    // A run that reached no check (a refused key) says so: a table of zeros would read as a clean result.
    report.checks.length === 0
      ? paragraph(text('Checks: not run (the run stopped before its checks).'))
      : table(
          ['Level', 'Passed', 'Failed', 'Error', 'Skipped'],
          (['must', 'should', 'info'] as CheckLevel[]).map((level) => {
            const c = report.summary.byLevel[level];
            return [level, c.passed, c.failed, c.error, c.skipped];
          }),
          [null, 'right', 'right', 'right', 'right'],
        ),
  ];
  if (report.findings.length > 0) {
    blocks.push(
      heading(3, text('Root causes')),
      table(
        ['Finding', 'Deviation', 'Checks'],
        report.findings.map((finding) => [finding.id, finding.summary, [text(`${finding.checks.length}: `), ...finding.checks.flatMap((id, i) => [...(i > 0 ? [text(', ')] : []), code(id)])]]),
      ),
    );
  }
  const failed = report.checks.filter((check) => failsRun(check, strict)).sort(byWeight(strict));
  if (failed.length > 0) {
    blocks.push(
      heading(3, text(`Failed checks that decide the verdict${strict ? ' (--strict: should checks count)' : ''}`)),
      table(
        ['Check', 'Level', 'Clause', 'Finding'],
        failed.map((check) => [code(check.id), check.level, check.clause, check.failure!.message.split('\n')[0]!]),
      ),
    );
  }
  const outcomes = new Map<string, number>();
  for (const requirement of report.requirements) outcomes.set(requirement.outcome, (outcomes.get(requirement.outcome) ?? 0) + 1);
  blocks.push(paragraph(text(`Requirements: ${[...outcomes].map(([outcome, n]) => `${n} ${outcome}`).join(', ')} (of ${report.requirements.length}).`)));
  if (report.target.kind !== 'traffic') {
    blocks.push(paragraph(text('Replay: '), code(replayCommand(report.settings, report.target.kind === 'external' ? report.target.baseUrl : undefined, {}, report.tool.command))));
  }
  return markdown(blocks);
}
