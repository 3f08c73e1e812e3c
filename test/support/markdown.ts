/**
 * summary.md read back as GitHub reads it (CommonMark with GFM tables, micromark): what a
 * reader sees of each cell, and whether any server text became markup.
 */
import type { Nodes, Root } from 'mdast';
import { fromMarkdown } from 'mdast-util-from-markdown';
import { gfmTableFromMarkdown } from 'mdast-util-gfm-table';
import { toString } from 'mdast-util-to-string';
import { gfmTable } from 'micromark-extension-gfm-table';

export function parseGfm(markdown: string): Root {
  return fromMarkdown(markdown, { extensions: [gfmTable()], mdastExtensions: [gfmTableFromMarkdown()] });
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
