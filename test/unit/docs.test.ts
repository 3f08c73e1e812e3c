/**
 * The documents as a reader meets them: the CLI reference is the code's (regenerated, it is
 * unchanged), every Markdown file renders as written (no code block left open, no closing
 * fence carrying text, no dead relative link, no flag the CLI does not have), and the quick
 * start's commands run. Each rule is shown failing on a realistic mutation of the real text.
 */
import { execFile } from 'node:child_process';
import { existsSync } from 'node:fs';
import { mkdtemp, readdir, readFile, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { promisify } from 'node:util';
import { describe, expect, test } from 'vitest';
import { packageRoot } from '../../src/core/package-info.js';
import { CLI_DOC, cliReference, docFacts, withFacts } from '../../scripts/cli-docs.js';
import { markdownProblems } from '../support/doc-lint.js';
import { CATALOGUE } from '../../src/requirements/catalogue.js';

const README = 'README.md';
const documents = new Map<string, string>();
for (const path of [README, ...(await readdir(join(packageRoot, 'docs'))).filter((name) => name.endsWith('.md')).map((name) => `docs/${name}`)]) {
  documents.set(path, await readFile(join(packageRoot, path), 'utf8'));
}
const exists = (path: string) => existsSync(join(packageRoot, path));
/** The flags the CLI has: those its reference shows. */
const flagsOf = (reference: string) => new Set([...reference.matchAll(/(?<![\w-])--[a-z][a-z0-9-]*[a-z0-9]/g)].map((match) => match[0]));
const FLAGS = flagsOf(documents.get(CLI_DOC)!);

/** The problems of `path` with its text replaced by `edit` of it (the edit must change it). */
function problemsAfter(path: string, edit: (text: string) => string, flags = FLAGS): string[] {
  const text = documents.get(path)!;
  const edited = edit(text);
  expect(edited).not.toBe(text);
  return markdownProblems(path, new Map([...documents, [path, edited]]), exists, flags);
}

describe('docs/cli.md', () => {
  test('is what `npm run docs` renders from the settings table and the help: regenerate it after a change to a flag', async () => {
    expect(documents.get(CLI_DOC)).toBe(await cliReference());
  });

  test('shows every flag of the table, with its one-letter flag and alias', () => {
    for (const flag of ['--base-url', '--header', '--rate-limit', '--traffic', '--url']) expect(FLAGS).toContain(flag);
    expect(documents.get(CLI_DOC)).toMatch(/^\| `--header <name: value>` \| `-H` \|/m);
    expect(documents.get(CLI_DOC)).toMatch(/^\| `--base-url <url>` \| `-u`, `--url` \|/m);
  });
});

describe('the counts the docs state are the code\'s (npm run docs sets them)', () => {
  test.each([...documents.keys()])('%s', async (path) => {
    const text = documents.get(path)!;
    expect(text, 'run npm run docs').toBe(withFacts(text, await docFacts()));
  });

  test('the check fails on a stale count, and on a fact that does not exist; a count stated bare is caught where the docs state one', async () => {
    const facts = await docFacts();
    expect(withFacts('<!--fact:must-->51<!--/fact-->', facts)).toBe(`<!--fact:must-->${facts.must}<!--/fact-->`);
    expect(() => withFacts('<!--fact:shoulds-->3<!--/fact-->', facts)).toThrow(/^no fact named shoulds \(there are checks, must, must-read-only, largest-body, /);
    // A number of must checks in prose, outside code and outside a fact, goes stale unseen: none is left.
    const bare = [...documents].flatMap(([doc, text]) => [...text.replace(/```[\s\S]*?```/g, '').replace(/`[^`]*`/g, '').replace(/<!--fact:[\w-]+-->\d+<!--\/fact-->/g, 'N').matchAll(/\b\d+ (?:of (?:the )?\d+ )?must checks?\b/g)].map((match) => `${doc}: ${match[0]}`));
    expect(bare.filter((found) => !found.startsWith('docs/development.md'))).toEqual([]);
  });
});

describe('docs/interface.md: the interface in the project\'s words, held to the requirements catalogue', () => {
  const rows = (text: string) => [...text.matchAll(/^\| ([RHO]-[\w.-]+) \| ([^|]+) \| (must|should|info) \|/gm)].map((match) => ({ id: match[1]!, clause: match[2]!.trim(), level: match[3]! }));

  test('every requirement of the catalogue, once, at its clause and level; no id the catalogue lacks', () => {
    const stated = rows(documents.get('docs/interface.md')!);
    expect(stated.map((row) => row.id).sort()).toEqual(CATALOGUE.map((requirement) => requirement.id).sort());
    for (const row of stated) expect(row, row.id).toEqual(CATALOGUE.filter((r) => r.id === row.id).map(({ id, clause, level }) => ({ id, clause, level }))[0]);
  });

  test('the check fails on a stale page: a rule dropped, a level changed', () => {
    const text = documents.get('docs/interface.md')!;
    expect(rows(text.replace(/^\| R-4\.2-R2 .*\n/m, '')).length).toBe(CATALOGUE.length - 1);
    expect(rows(text.replace('| R-7-STATUS | 7 | must |', '| R-7-STATUS | 7 | should |')).find((row) => row.id === 'R-7-STATUS')?.level).toBe('should');
  });

  test('the README links it', () => {
    expect(documents.get(README)).toContain('[the interface](docs/interface.md)');
  });
});

describe('--help', () => {
  test('wraps at the width of the terminal it goes to, and at 80 columns off a terminal (what docs/cli.md holds)', async () => {
    const { main } = await import('../../src/cli/main.js');
    const { Writable } = await import('node:stream');
    const widest = async (tty: boolean) => {
      let text = '';
      const out = Object.assign(new Writable({ write: (chunk, _encoding, done) => ((text += String(chunk)), done()) }), tty ? { isTTY: true, columns: 120 } : {});
      await main(['run', '--help'], { stdout: out, stderr: out, env: {}, cwd: packageRoot });
      return Math.max(...text.split('\n').map((line) => line.length));
    };
    expect(await widest(false)).toBeLessThanOrEqual(80);
    expect(await widest(true)).toBeGreaterThan(80);
  });
});

describe('every Markdown file renders as written', () => {
  test.each([...documents.keys()])('%s', (path) => {
    expect(markdownProblems(path, documents, exists, FLAGS)).toEqual([]);
  });

  test('the README is a front page: at most 300 lines, the rest in docs/', () => {
    expect(documents.get(README)!.split('\n').length).toBeLessThanOrEqual(300);
    expect(documents.size).toBeGreaterThan(8);
  });
});

describe('the rules fail on the mutations they exist for', () => {
  test('a code block left open (the closing fence of the last one deleted)', () => {
    const problems = problemsAfter(README, (text) => text.slice(0, text.lastIndexOf('```\n')) + text.slice(text.lastIndexOf('```\n') + 4));
    expect(problems).toEqual([expect.stringMatching(/^README\.md:\d+: a code block left open: it swallows everything after it$/)]);
  });

  test('a closing fence carrying text (the README of issue 36: "``` The fleet and GitLab examples")', () => {
    const problems = problemsAfter('docs/ci.md', (text) => text.replace(/\n```\n\n## GitLab CI without the component\n\nThe fleet/, '\n``` The fleet'));
    expect(problems).toEqual(expect.arrayContaining([expect.stringMatching(/^docs\/ci\.md:\d+: a closing fence carrying text \("``` The fleet and plain GitLab examples/)]));
  });

  test('a dead link: a file that does not exist, and a heading that does not', () => {
    expect(problemsAfter(README, (text) => text.replace('(docs/traffic.md)', '(docs/trafic.md)'))).toEqual([
      expect.stringMatching(/^README\.md:\d+: a dead link: docs\/trafic\.md \(no docs\/trafic\.md\)$/),
    ]);
    expect(problemsAfter(README, (text) => text.replace('running.md#exit-codes-a-stable-contract', 'running.md#exit-codes'))).toEqual([
      expect.stringMatching(/^README\.md:\d+: a dead link: docs\/running\.md#exit-codes \(no heading #exit-codes in docs\/running\.md\)$/),
    ]);
  });

  test('a link or a path outside the repository (the README of issue 45 named ../shared/spec/…); near miss: one inside it, from a page in docs/', () => {
    expect(problemsAfter(README, (text) => text.replace('(docs/interface.md)', '(../shared/spec/pet-store-categories.md)'))).toEqual([
      expect.stringMatching(/^README\.md:\d+: a link that leaves the repository: \.\.\/shared\/spec\/pet-store-categories\.md \(a clone holds no \.\.\/shared\/spec\/pet-store-categories\.md\)$/),
    ]);
    expect(problemsAfter(README, (text) => text.replace('[the interface](docs/interface.md)', '`../shared/spec/pet-store-categories.md`'))).toEqual([
      expect.stringMatching(/^README\.md:\d+: a path that leaves the repository: \.\.\/shared\/spec\/pet-store-categories\.md$/),
    ]);
    expect(markdownProblems('docs/x.md', new Map([['docs/x.md', '[the README](../README.md) `../schemas/`\n']]), exists, FLAGS)).toEqual([]);
  });

  test('a removed flag: a document still naming --rate-limit once the CLI has no such flag', () => {
    const without = new Set([...FLAGS].filter((flag) => flag !== '--rate-limit'));
    const problems = markdownProblems(README, documents, exists, without);
    expect(problems.length).toBeGreaterThan(0);
    expect(problems.every((problem) => problem.endsWith('--rate-limit is no flag of the CLI (docs/cli.md)'))).toBe(true);
  });

  test('near misses that are no problem: a fence of another kind inside a block, an anchor that exists, a flag of npm', () => {
    expect(markdownProblems('x.md', new Map([['x.md', '# A b\n\n~~~md\n```yaml\na: 1\n```\n~~~\n\n[here](#a-b) `npm ci --no-audit`\n']]), exists, FLAGS)).toEqual([]);
  });
});

describe('the quick start runs as written', () => {
  const quickStart = /## Quick start\n[\s\S]*?```sh\n([\s\S]*?)```/.exec(documents.get(README)!)![1]!;
  const commands = quickStart.split('\n').map((line) => line.replace(/\s+#.*$/, '').trim()).filter(Boolean);

  test('its commands: install, the help, the list of checks, and the run against the embedded server', () => {
    expect(commands).toEqual(['npm install', 'node bin/petstore-conformance.js --help', 'node bin/petstore-conformance.js list', 'npm start']);
  });

  test.each(commands.filter((command) => command !== 'npm install'))('%s exits 0', async (command) => {
    // npm start is `run` against the embedded server: its reports go to a temporary folder of this test.
    const reports = await mkdtemp(join(tmpdir(), 'pcs-quick-start-'));
    const [file, ...args] = command === 'npm start' ? ['node', 'bin/petstore-conformance.js', 'run', '--report-dir', reports] : command.split(' ');
    try {
      const { stdout } = await promisify(execFile)(file === 'node' ? process.execPath : file!, args, { cwd: packageRoot, env: { ...process.env, NO_COLOR: '1' } });
      expect(stdout.length).toBeGreaterThan(0);
      if (command !== 'npm start') return;
      expect(stdout).toMatch(/^Verdict: SELF-TEST \(embedded reference server\): CONFORMANT/m);
      // The README's sample output counts what this run counts: the must checks exactly, the requests within 15%.
      const sample = /`npm start` starts[\s\S]*?```text\n([\s\S]*?)```/.exec(documents.get(README)!)![1]!;
      const count = (text: string, pattern: RegExp) => Number(pattern.exec(text)?.[1]);
      for (const pattern of [/^ {2}must +(\d+) passed$/m, /all (\d+) must checks passed/, /^ {2}should +(\d+) passed$/m, /^ {2}info +(\d+) passed$/m]) {
        expect(count(sample, pattern), String(pattern)).toBe(count(stdout, pattern));
      }
      const requests = /^Requests: (\d+) sent/m;
      expect(Math.abs(count(sample, requests) / count(stdout, requests) - 1)).toBeLessThanOrEqual(0.15);
    } finally {
      await rm(reports, { recursive: true, force: true });
    }
  });

  test('npm start is the run it stands for', async () => {
    const { scripts } = JSON.parse(await readFile(join(packageRoot, 'package.json'), 'utf8')) as { scripts: Record<string, string> };
    expect(scripts.start).toBe('node bin/petstore-conformance.js run');
  });
});

describe('the limits the docs state are the code\'s constants (npm run docs sets them)', () => {
  test('each is written in the unit a reader expects; near misses: a byte off a KiB, half a second', async () => {
    const { shown } = await import('../../scripts/cli-docs.js');
    expect([shown(1024 * 1024, 'bytes'), shown(64 * 1024, 'bytes'), shown(1024 * 1024 + 1024, 'bytes'), shown(1025, 'bytes')]).toEqual(['1 MiB', '64 KiB', '1025 KiB', '1025 bytes']);
    expect([shown(1_000, 'ms'), shown(500, 'ms'), shown(1_001, 'ms'), shown(48, 'count')]).toEqual(['1 s', '0.5 s', '1.001 s', '48']);
  });

  test('a limit changed in the code makes its page stale: the largest body one KiB more', async () => {
    const facts = await docFacts();
    const text = documents.get('docs/traffic.md')!;
    expect(text).toContain('<!--fact:largest-body-->1 MiB<!--/fact-->');
    expect(withFacts(text, { ...facts, 'largest-body': '1025 KiB' })).not.toBe(text);
  });
});
