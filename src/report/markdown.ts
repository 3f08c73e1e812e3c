/**
 * Markdown for CI job summaries and pull-request comments (summary.md), written as an mdast
 * tree and serialized by mdast-util-to-markdown with its GFM table extension: every piece of
 * text is escaped by the writer for where it stands (a cell, a heading, inline code), so
 * server text renders as the text it is, `&#x27;` and `|` included. Server text is also
 * made visible first: a control character is no Markdown.
 */
import type { Heading, InlineCode, Link, Paragraph, PhrasingContent, Root, RootContent, Table, TableCell, Text } from 'mdast';
import { gfmTableToMarkdown } from 'mdast-util-gfm-table';
import { toMarkdown } from 'mdast-util-to-markdown';
import { visible } from './visible.js';

/** A zero-width joiner: between the characters of a reference, it renders as nothing and keeps GitHub and GitLab from reading one. */
const ZWJ = '\u200d';

/**
 * Text with nothing GitHub or GitLab turns into a notification or a link outside Markdown's
 * own syntax: a zero-width joiner after `@` (a mention of a user or a team, an email), after
 * `#`, `!` or `&` before a digit (an issue, a merge request, an epic; `owner/repo#12` too),
 * inside `GH-12`, and after a URL's scheme or `www` (an autolink). A server's category
 * named `@everyone` then pings no one; the text renders as it was.
 */
export function inert(value: string): string {
  return value
    .replace(/@(?=[\w.-])/g, `@${ZWJ}`)
    .replace(/([#!&])(?=\d)/g, `$1${ZWJ}`)
    .replace(/\b(GH)-(?=\d)/gi, `$1${ZWJ}-`)
    .replace(/\b(https?|ftp)(?=:\/\/)/gi, `$1${ZWJ}`)
    .replace(/\b(www)(?=\.)/gi, `$1${ZWJ}`);
}

/** Text as it came (from the server or the user): controls made visible, one line, no reference or autolink (see {@link inert}). */
export const text = (value: string | number): Text => ({ type: 'text', value: inert(visible(String(value)).replace(/\r?\n/g, ' ')) });
/** Inline code: ids, commands, URLs. */
export const code = (value: string): InlineCode => ({ type: 'inlineCode', value: visible(value).replace(/\r?\n/g, ' ') });
export const link = (label: string, url: string): Link => ({ type: 'link', url, children: [text(label)] });
export const heading = (depth: 2 | 3, ...children: PhrasingContent[]): Heading => ({ type: 'heading', depth, children });
export const paragraph = (...children: PhrasingContent[]): Paragraph => ({ type: 'paragraph', children });

/** A GFM table: a header row and rows of cells, each cell some phrasing (a string is text); numbers align right. */
export function table(header: readonly string[], rows: ReadonlyArray<ReadonlyArray<string | number | PhrasingContent | PhrasingContent[]>>, align: ReadonlyArray<'left' | 'right' | null> = []): Table {
  const cell = (content: string | number | PhrasingContent | PhrasingContent[]): TableCell => ({
    type: 'tableCell',
    children: Array.isArray(content) ? content : typeof content === 'object' ? [content] : [text(content)],
  });
  return {
    type: 'table',
    align: header.map((_, i) => align[i] ?? null),
    children: [{ type: 'tableRow', children: header.map(cell) }, ...rows.map((row) => ({ type: 'tableRow' as const, children: row.map(cell) }))],
  };
}

/** The document's Markdown. */
export function markdown(children: RootContent[]): string {
  const root: Root = { type: 'root', children };
  return toMarkdown(root, { extensions: [gfmTableToMarkdown({ tablePipeAlign: false })], bullet: '-', fences: true, rule: '-' });
}
