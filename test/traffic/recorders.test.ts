/**
 * What real recorders write, judged right: captures each recorder made of the same session
 * against a correct server, a body fault and an authentication fault
 * (test/fixtures/captures, made again by its record.ts), the same captures in the shapes
 * of exporters that cannot run here (test/support/exporter-shapes.ts), and, where a
 * recorder is installed, a capture it makes now. A correct server is conformant in each; a
 * fault is nonconformant in each, by the check its fault breaks.
 */
import { existsSync } from 'node:fs';
import { mkdir, mkdtemp, readFile, readdir, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { deflateSync } from 'node:zlib';
import { afterAll, beforeAll, describe, expect, test } from 'vitest';
import { FIELD_LISTED_TWICE } from '../../src/traffic/capture.js';
import { judgeCapture } from '../../src/traffic/judge-capture.js';
import { CHECKS } from '../support/checks.js';
import { EXPORTER_SHAPES, type Har } from '../support/exporter-shapes.js';
import { loadCatalogue } from '../support/matrix.js';
import { HARD_NAMES, RECORDERS, installed, scenarioVariations, startTargets, type Scenario } from '../support/recorders.js';

const FIXTURES = fileURLToPath(new URL('../fixtures/captures/', import.meta.url));
const SCENARIOS: readonly Scenario[] = ['correct', 'body-fault', 'auth-fault'];

let dir: string;
beforeAll(async () => void (dir = await mkdtemp(join(tmpdir(), 'pcs-recorders-'))));
afterAll(() => rm(dir, { recursive: true, force: true }));

/** The interface's base URL in a capture: the first request under /v1/. */
const baseUrlOf = (har: Har) => har.log.entries.map((entry) => entry.request.url).find((url) => url.includes('/v1/'))!.replace(/\/v1\/.*$/, '/v1');

/** Judges a capture of `scenario` with the key known, as an auditor with the key does. */
async function judgeScenario(file: string, scenario: Scenario, baseUrl?: string) {
  baseUrl ??= baseUrlOf(JSON.parse(await readFile(file, 'utf8')) as Har);
  const outcome = await judgeCapture({ checks: CHECKS, files: [file], baseUrl, apiKey: `recorded-${scenario}-key-0123456789abcdef`, reportDir: null, formats: ['json'], out: null });
  return { ...outcome, failed: outcome.report.checks.filter((check) => check.level === 'must' && check.status === 'failed').map((check) => check.id) };
}

/**
 * What every recorder's capture of each target must come to. A correct server's creates
 * are judged, their bodies read (`bodiesKept`; Edge leaves request bodies out).
 */
function expectVerdict(scenario: Scenario, outcome: Awaited<ReturnType<typeof judgeScenario>>, name: string, bodiesKept = true): void {
  if (scenario === 'correct') {
    expect(outcome.failed, name).toEqual([]);
    expect(outcome.report.verdict, `${name}: ${outcome.report.verdictReason}`).toBe('conformant');
    const created = outcome.report.checks.find((check) => check.id === 'create-valid-bodies')!;
    expect(created.status, name).toBe(bodiesKept ? 'passed' : 'skipped');
    return;
  }
  expect(outcome.report.verdict, name).toBe('nonconformant');
  // The digit-only name comes back a number: in the create's answer, or (its body left out) in the list after.
  if (scenario === 'body-fault') expect(outcome.failed, name).toEqual(expect.arrayContaining([expect.stringMatching(/^(create-valid-bodies|list-items-are-categories)$/)]));
  if (scenario === 'auth-fault') expect(outcome.failed, name).toContain('list-401-missing');
}

describe('captures the recorders made (test/fixtures/captures)', async () => {
  const recorders = (await readdir(FIXTURES, { withFileTypes: true })).filter((entry) => entry.isDirectory()).map((entry) => entry.name);
  test('every recorder that runs here has its captures', () => expect(recorders.sort()).toEqual(RECORDERS.map((recorder) => recorder.name).sort()));
  test.each(recorders.flatMap((recorder) => SCENARIOS.map((scenario) => [recorder, scenario] as const)))('%s, %s', async (recorder, scenario) => {
    expectVerdict(scenario, await judgeScenario(join(FIXTURES, recorder, `${scenario}.har`), scenario), recorder);
  });

  test('a capture the recorder wrote whole, its bodies judged: none is listed as not kept', async () => {
    for (const recorder of recorders) {
      const { report } = await judgeScenario(join(FIXTURES, recorder, 'correct.har'), 'correct');
      expect(report.traffic!.missing, recorder).toEqual({});
    }
  });

  test.each(['chrome-har', 'axios-har-tracker', 'playwright-recordHar'])('%s: every create of the session is judged, the names with quotes, & and <, a line break and spaces at the ends among them', async (recorder) => {
    const { report } = await judgeScenario(join(FIXTURES, recorder, 'correct.har'), 'correct');
    // Chats 🐈, 123 and the three hard names: created exactly, each judged.
    expect(report.checks.find((check) => check.id === 'create-valid-bodies')!.traffic).toEqual({ exchanges: 2 + HARD_NAMES.length, failures: 0, alone: true });
  });

  test('chrome-har: a server that answers a name back with its quote escaped (O\\\'Hara) is caught in the capture, its body rebuilt from params', async () => {
    const har = JSON.parse(await readFile(join(FIXTURES, 'chrome-har', 'correct.har'), 'utf8')) as { log: { entries: Array<{ response: { content: { text?: string } } }> } };
    // The answer to the create, as a server that stores a backslash before the quote (PHP's addslashes) writes it: "O\\'Hara".
    for (const entry of har.log.entries) {
      const content = entry.response.content;
      if (content.text?.startsWith('{') && content.text.includes("O'Hara")) content.text = content.text.replace("O'Hara", "O\\\\'Hara");
    }
    const file = join(dir, 'chrome-har-escaped.har');
    await writeFile(file, JSON.stringify(har));
    const { failed, report } = await judgeScenario(file, 'correct');
    expect(failed).toContain('create-valid-bodies');
    expect(report.checks.find((check) => check.id === 'create-valid-bodies')!.failure!.message).toContain(`Expected the created category to have name "O'Hara & <Sons> \\"x\\"", found "O\\\\'Hara`);
  });

  test('chrome-har: params whose text is not the body’s length are listed as not kept, counted in the headline, never judged', async () => {
    const har = JSON.parse(await readFile(join(FIXTURES, 'chrome-har', 'correct.har'), 'utf8')) as Har;
    // Without Content-Length (chrome-har without the ExtraInfo events lists none), bodySize is all there is to measure the text by.
    for (const entry of har.log.entries as Array<{ request: { postData?: unknown; bodySize: number; headers: Array<{ name: string }> } }>) {
      if (!entry.request.postData) continue;
      entry.request.bodySize += 1;
      entry.request.headers = entry.request.headers.filter(({ name }) => name.toLowerCase() !== 'content-length');
    }
    const file = join(dir, 'chrome-har-lengths.har');
    await writeFile(file, JSON.stringify(har));
    const { report } = await judgeScenario(file, 'correct');
    expect(report.traffic!.missing).toEqual({ 'request body': 2 + HARD_NAMES.length + 1 });
    expect(report.traffic!.dropped![0]!.reason).toMatch(/^given as params only, and their text, \d+ bytes, is not the body's \d+$/);
  });

  test('chrome-har: Chrome reports each request’s fields twice (the key among them), and each entry is read with its fields once: the correct server conformant, the entries counted', async () => {
    const har = JSON.parse(await readFile(join(FIXTURES, 'chrome-har', 'correct.har'), 'utf8')) as Har;
    const entries = har.log.entries as Array<{ request: { method: string; headers: Array<{ name: string; value: string }> } }>;
    const doubled = entries.filter((entry) => entry.request.headers.filter(({ name }) => name.toLowerCase() === 'authorization').length === 2);
    expect(doubled.length).toBeGreaterThan(0);
    const { report, failed } = await judgeScenario(join(FIXTURES, 'chrome-har', 'correct.har'), 'correct');
    expect(failed).toEqual([]);
    expect(report.traffic!.repaired![FIELD_LISTED_TWICE]).toBeGreaterThanOrEqual(doubled.length);
    // Near miss: the key twice with different values (the key, then another) is no recorder's slip: one field "KEY, other", judged as the attack it is.
    const tampered = structuredClone(har);
    const post = (tampered.log.entries as typeof entries).find((entry) => entry.request.method === 'POST' && entry.request.headers.filter(({ name }) => name.toLowerCase() === 'authorization').length === 2)!;
    const second = post.request.headers.filter(({ name }) => name.toLowerCase() === 'authorization')[1]!;
    second.value = `${second.value}x`;
    const file = join(dir, 'chrome-har-key-then-another.har');
    await writeFile(file, JSON.stringify(tampered));
    expect((await judgeScenario(file, 'correct')).failed).toContain('auth-rejects-generated-credentials');
  });

  test('axios-har-tracker: its header fields without a value are read as empty and counted, and every GET is judged', async () => {
    const { report } = await judgeScenario(join(FIXTURES, 'axios-har-tracker', 'auth-fault.har'), 'auth-fault');
    expect(report.traffic!.repaired).toEqual({ 'a header field without a value, read as empty': 3 });
    expect(report.traffic!.invalid).toBeUndefined();
    expect(report.checks.find((check) => check.id === 'list-401-missing')!.status).toBe('failed');
  });
});

describe('the same captures in the shapes of exporters that cannot run here', () => {
  test.each(EXPORTER_SHAPES.flatMap((shape) => SCENARIOS.map((scenario) => [shape.name, scenario] as const)))('%s, %s', async (name, scenario) => {
    const shape = EXPORTER_SHAPES.find((candidate) => candidate.name === name)!;
    const har = shape.shape(JSON.parse(await readFile(join(FIXTURES, 'playwright-recordHar', `${scenario}.har`), 'utf8')) as Har);
    const file = join(dir, `${name}-${scenario}.har`);
    await writeFile(file, JSON.stringify(har));
    expectVerdict(scenario, await judgeScenario(file, scenario), `${name}: ${shape.follows}`, name !== 'edge-f12');
  });

  test('Edge leaves request bodies out: each is listed as not kept, never judged', async () => {
    const har = EXPORTER_SHAPES.find((shape) => shape.name === 'edge-f12')!.shape(JSON.parse(await readFile(join(FIXTURES, 'playwright-recordHar', 'correct.har'), 'utf8')) as Har);
    const file = join(dir, 'edge-dropped.har');
    await writeFile(file, JSON.stringify(har));
    const { report } = await judgeScenario(file, 'correct');
    // Chats 🐈, 123, the hard names and the create without a name.
    const creates = 2 + HARD_NAMES.length + 1;
    expect(report.traffic!.missing).toEqual({ 'request body': creates });
    expect(report.traffic!.dropped!.map((dropped) => dropped.reason)).toEqual(Array(creates).fill('not kept in the capture'));
  });

  test('a capture mitmproxy compressed (.zhar, zlib) is read as it is', async () => {
    const file = join(dir, 'correct.zhar');
    const har = await readFile(join(FIXTURES, 'mitmproxy-har_dump', 'correct.har'));
    await writeFile(file, deflateSync(har));
    expectVerdict('correct', await judgeScenario(file, 'correct', baseUrlOf(JSON.parse(har.toString()) as Har)), 'zhar');
  });
});

describe('captures the recorders installed here make now', async () => {
  const { faults } = await loadCatalogue();
  for (const recorder of RECORDERS) {
    if (!installed(recorder)) console.log(`recorder ${recorder.name} skipped: needs ${recorder.needs.filter((path) => !existsSync(path)).join(', ')} (CI installs it)`);
    test.skipIf(!installed(recorder))(recorder.name, async () => {
      const targets = await startTargets(scenarioVariations(faults));
      const out = join(dir, recorder.name);
      await mkdir(out, { recursive: true });
      try {
        await recorder.record(targets, out);
      } finally {
        for (const { server } of targets) await server.close();
      }
      for (const scenario of SCENARIOS) expectVerdict(scenario, await judgeScenario(join(out, `${scenario}.har`), scenario), recorder.name);
    }, 60_000);
  }
});
