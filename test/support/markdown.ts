/**
 * summary.md read back as GitHub reads it (CommonMark with GFM tables, micromark): what a
 * reader sees of each cell, and whether any server text became markup.
 */
import type { Nodes, Root } from 'mdast';
import { fromMarkdown } from 'mdast-util-from-markdown';
import { gfmAutolinkLiteralFromMarkdown } from 'mdast-util-gfm-autolink-literal';
import { gfmTableFromMarkdown } from 'mdast-util-gfm-table';
import { toString } from 'mdast-util-to-string';
import { gfmAutolinkLiteral } from 'micromark-extension-gfm-autolink-literal';
import { gfmTable } from 'micromark-extension-gfm-table';

/** Markdown as GitHub parses it: CommonMark with GFM tables and autolink literals (`www.x`, `https://x`, emails). */
export function parseGfm(markdown: string): Root {
  return fromMarkdown(markdown, { extensions: [gfmTable(), gfmAutolinkLiteral()], mdastExtensions: [gfmTableFromMarkdown(), gfmAutolinkLiteralFromMarkdown()] });
}

/**
 * What GitHub and GitLab read in plain text after Markdown (not in code): mentions (`@user`,
 * `@org/team`), issue, merge request and epic references (`#12`, `!12`, `&12`, `GH-12`,
 * `owner/repo#12`). Each found, as `<kind>: <text>`.
 */
export function references(tree: Root): string[] {
  const found: string[] = [];
  for (const node of nodes(tree)) {
    if (node.type !== 'text') continue;
    for (const [match] of node.value.matchAll(/(?<![\w`])@[A-Za-z0-9][\w.-]*(?:\/[\w.-]+)?/g)) found.push(`mention: ${match}`);
    for (const [match] of node.value.matchAll(/(?:[\w.-]+\/[\w.-]+)?[#!&]\d+|\bGH-\d+/gi)) found.push(`reference: ${match}`);
  }
  return found;
}

/** Every node of a tree, depth first. */
function* nodes(node: Nodes): Generator<Nodes> {
  yield node;
  if ('children' in node) for (const child of node.children) yield* nodes(child as Nodes);
}

/** The text a reader sees in each row of every table, row by row. */
export function tableRows(tree: Root): string[][] {
  return [...nodes(tree)].filter((node) => node.type === 'tableRow').map((row) => (row as { children: Nodes[] }).children.map((cell) => toString(cell)));
}

/** The kinds of markup nodes other than the document's own (html, emphasis, strong, link): what server text must never become. */
export function markupKinds(tree: Root): string[] {
  return [...nodes(tree)].filter((node) => ['html', 'emphasis', 'strong', 'link', 'image', 'delete'].includes(node.type)).map((node) => node.type);
}
