/**
 * The project's Markdown, read as GitHub renders it (CommonMark with GFM tables, micromark):
 * the problems a reader would meet. A code block left open swallows the prose after it; a
 * closing fence that carries text closes nothing (CommonMark §4.5), with the same effect; a
 * relative link to a file or heading that does not exist is dead, and one outside the
 * repository dead in every clone; a flag the CLI no longer has sends a reader to a usage
 * error.
 */
import type { Nodes } from 'mdast';
import GithubSlugger from 'github-slugger';
import { toString } from 'mdast-util-to-string';
import { dirname, join, normalize } from 'node:path';
import { parseGfm } from './markdown.js';

/** Flags of other tools that the documents show (npm, git, httpie, the project's scripts), beside the suite's own. */
export const OTHER_TOOLS_FLAGS: ReadonlySet<string> = new Set([
  '--prefix', '--no-audit', '--no-fund', '--no-save', '--yes', // npm
  '--branch', '--depth', '--follow-tags', // git
  '--form', // httpie
  '--sample', '--sample-fresh', '--slow', // npm run mutations
  '--api-key', // named as refused: a key is never taken on the command line
  '--inspect', '--import', '--input-type', // node's, which the library's run leaves alone
]);

/** Every node of a tree, depth first. */
function* nodes(node: Nodes): Generator<Nodes> {
  yield node;
  if ('children' in node) for (const child of node.children) yield* nodes(child as Nodes);
}

const FENCE = /^ {0,3}(`{3,}|~{3,})(.*)$/;

/** Whether a path, relative to the repository's root and normalized, lies outside it. */
const leaves = (path: string) => path === '..' || path.startsWith('../');

/** The headings' anchors of a document, as GitHub makes them. */
export function anchorsOf(markdown: string): Set<string> {
  const slugger = new GithubSlugger();
  return new Set([...nodes(parseGfm(markdown))].filter((node) => node.type === 'heading').map((node) => slugger.slug(toString(node))));
}

/**
 * The problems of one document, each as "PATH:LINE: what". `documents` maps each path
 * (relative to the root, `/`-separated) to its text, so that links between them are
 * followed; `exists` says whether any other relative path exists; `flags` are the flags
 * the CLI has.
 */
export function markdownProblems(path: string, documents: ReadonlyMap<string, string>, exists: (path: string) => boolean, flags: ReadonlySet<string>): string[] {
  const text = documents.get(path)!;
  const lines = text.split('\n');
  const problems: string[] = [];
  const at = (line: number | undefined, what: string) => problems.push(`${path}:${line ?? '?'}: ${what}`);
  const tree = parseGfm(text);
  for (const node of nodes(tree)) {
    if (node.type === 'code' && node.position) {
      const { start, end } = node.position;
      const opening = FENCE.exec(lines[start.line - 1]!);
      if (!opening) continue; // an indented block
      const marker = opening[1]!;
      const closes = (line: string | undefined) => {
        const fence = line === undefined ? null : FENCE.exec(line);
        return fence !== null && fence[1]![0] === marker[0] && fence[1]!.length >= marker.length;
      };
      for (let line = start.line + 1; line <= end.line; line++) {
        const fence = FENCE.exec(lines[line - 1]!);
        if (fence && closes(lines[line - 1]) && fence[2]!.trim() !== '') at(line, `a closing fence carrying text ("${lines[line - 1]!.trim()}") closes nothing: the code block goes on`);
      }
      const last = lines[end.line - 1];
      if (end.line === start.line || !closes(last) || FENCE.exec(last!)![2]!.trim() !== '') at(start.line, 'a code block left open: it swallows everything after it');
    }
    // A path in code that points outside the repository: what a clone cannot read.
    if (node.type === 'inlineCode' && node.position && /^\.\.\//.test(node.value) && leaves(normalize(join(dirname(path), node.value)))) {
      at(node.position.start.line, `a path that leaves the repository: ${node.value}`);
    }
    if ((node.type === 'link' || node.type === 'definition' || node.type === 'image') && node.position) {
      const url = node.url;
      if (/^[a-z][a-z0-9+.-]*:/i.test(url)) continue; // absolute (https:, mailto:)
      const [file, anchor] = url.split('#') as [string, string | undefined];
      const target = file === '' ? path : normalize(join(dirname(path), decodeURIComponent(file))).replaceAll('\\', '/');
      if (leaves(target)) {
        at(node.position.start.line, `a link that leaves the repository: ${url} (a clone holds no ${target})`);
        continue;
      }
      const document = documents.get(target);
      if (document === undefined && !exists(target.replace(/\/$/, ''))) at(node.position.start.line, `a dead link: ${url} (no ${target})`);
      else if (anchor !== undefined && document !== undefined && !anchorsOf(document).has(anchor)) at(node.position.start.line, `a dead link: ${url} (no heading #${anchor} in ${target})`);
    }
  }
  lines.forEach((line, index) => {
    for (const [flag] of line.matchAll(/(?<![\w!-])--[a-z][a-z0-9-]*[a-z0-9]/g)) {
      if (!flags.has(flag) && !OTHER_TOOLS_FLAGS.has(flag)) at(index + 1, `${flag} is no flag of the CLI (docs/cli.md)`);
    }
  });
  return problems;
}
