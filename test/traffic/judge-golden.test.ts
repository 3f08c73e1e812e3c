/**
 * What `judge` concludes from the captures real recorders made (test/fixtures/captures:
 * four recorders, a correct server, a body fault, an authentication fault), held whole in
 * a golden file: the verdict and its reason, the notices, what the capture held and left
 * out, and each check's outcome, exchange counts and first finding. The recorder tests
 * (slow tier) ask the verdicts; this holds every word and count a report states, so a
 * changed count, bound or message in the judge fails in the fast tier.
 */
import { readdir, readFile } from 'node:fs/promises';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { expect, test } from 'vitest';
import { judgeCapture } from '../../src/traffic/judge-capture.js';
import { CHECKS } from '../support/checks.js';

const FIXTURES = fileURLToPath(new URL('../fixtures/captures/', import.meta.url));

/** A report's words and counts, one line each, without what differs from run to run (times). */
function digest(report: Awaited<ReturnType<typeof judgeCapture>>['report']): string {
  const checks = report.checks.map((check) => {
    const traffic = check.traffic ? ` ${check.traffic.failures}/${check.traffic.exchanges}${check.traffic.alone ? '' : ' joined'}` : '';
    const why = check.status === 'skipped' ? ` (${check.reason})` : check.failure ? `: ${check.failure.message.split('\n')[0]!.slice(0, 240)}` : '';
    return `  ${check.status} ${check.id}${traffic}${why}`;
  });
  return [
    `verdict ${report.verdict}: ${report.verdictReason ?? ''}`,
    `headline ${report.headline}`,
    ...(report.notices ?? []).map((notice) => `notice ${notice}`),
    `traffic ${JSON.stringify(report.traffic)}`,
    ...checks,
  ].join('\n');
}

test('each recorder\'s capture of each server, judged with the key known: the golden file holds every outcome and word', async () => {
  const sections: string[] = [];
  for (const recorder of (await readdir(FIXTURES, { withFileTypes: true })).filter((entry) => entry.isDirectory()).map((entry) => entry.name).sort()) {
    for (const scenario of ['correct', 'body-fault', 'auth-fault']) {
      const file = join(FIXTURES, recorder, `${scenario}.har`);
      const har = JSON.parse(await readFile(file, 'utf8')) as { log: { entries: Array<{ request: { url: string } }> } };
      const baseUrl = har.log.entries.map((entry) => entry.request.url).find((url) => url.includes('/v1/'))!.replace(/\/v1\/.*$/, '/v1');
      const { report } = await judgeCapture({ checks: CHECKS, files: [file], baseUrl, apiKey: `recorded-${scenario}-key-0123456789abcdef`, reportDir: null, formats: ['json'], out: null });
      sections.push(`# ${recorder}, ${scenario}\n${digest(report).replaceAll(baseUrl, '<base>').replaceAll(FIXTURES, '<fixtures>/')}`);
    }
  }
  await expect(`${sections.join('\n\n')}\n`).toMatchFileSnapshot('__snapshots__/judge-golden.txt');
});

test('the bench\'s capture (4,600 exchanges of a growing catalogue), read whole and, under a body bound of 600 bytes, mostly as streams: the golden file holds every outcome and word', async () => {
  const { mkdtemp, rm } = await import('node:fs/promises');
  const { tmpdir } = await import('node:os');
  const { writeBenchHar } = await import('../../scripts/bench-traffic.js');
  const dir = await mkdtemp(join(tmpdir(), 'pcs-judge-golden-'));
  try {
    const file = join(dir, 'bench.har');
    await writeBenchHar(file, 4_600);
    const sections: string[] = [];
    for (const maxBodyBytes of [undefined, 600]) {
      const { report } = await judgeCapture({ checks: CHECKS, files: [file], baseUrl: 'https://petstore.example/v1', apiKey: 'bench-traffic-key-0123456789abcdef', reportDir: null, formats: ['json'], out: null, ...(maxBodyBytes ? { maxBodyBytes } : {}) });
      sections.push(`# --max-response-bytes ${maxBodyBytes ?? 'default'}\n${digest(report).replaceAll(dir, '<dir>')}`);
    }
    await expect(`${sections.join('\n\n')}\n`).toMatchFileSnapshot('__snapshots__/judge-golden-bench.txt');
  } finally {
    await rm(dir, { recursive: true, force: true });
  }
}, 60_000);
