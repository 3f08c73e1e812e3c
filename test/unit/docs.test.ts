/**
 * The documents as a reader meets them: the CLI reference is the code's (regenerated, it is
 * unchanged), every Markdown file renders as written (no code block left open, no closing
 * fence carrying text, no dead relative link, no flag the CLI does not have), and the quick
 * start's commands run. Each rule is shown failing on a realistic mutation of the real text.
 */
import { execFile } from 'node:child_process';
import { existsSync } from 'node:fs';
import { readdir, readFile, rm } from 'node:fs/promises';
import { join } from 'node:path';
import { promisify } from 'node:util';
import { describe, expect, test } from 'vitest';
import { packageRoot } from '../../src/core/package-info.js';
import { CLI_DOC, cliReference } from '../../scripts/cli-docs.js';
import { markdownProblems } from '../support/doc-lint.js';

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
    // npm start is `run` against the embedded server: its reports go to a folder of this test.
    const [file, ...args] = command === 'npm start' ? ['node', 'bin/petstore-conformance.js', 'run', '--report-dir', join(packageRoot, 'reports', '.quick-start-test')] : command.split(' ');
    try {
      const { stdout } = await promisify(execFile)(file === 'node' ? process.execPath : file!, args, { cwd: packageRoot, env: { ...process.env, NO_COLOR: '1' } });
      expect(stdout.length).toBeGreaterThan(0);
      if (command === 'npm start') expect(stdout).toMatch(/^Verdict: SELF-TEST \(embedded reference server\): CONFORMANT/m);
    } finally {
      await rm(join(packageRoot, 'reports', '.quick-start-test'), { recursive: true, force: true });
    }
  });

  test('npm start is the run it stands for', async () => {
    const { scripts } = JSON.parse(await readFile(join(packageRoot, 'package.json'), 'utf8')) as { scripts: Record<string, string> };
    expect(scripts.start).toBe('node bin/petstore-conformance.js run');
  });
});
