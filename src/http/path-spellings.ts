/**
 * Other spellings of the interface's one path, `{base_url}/categories`, that common routers
 * take for the same route: a trailing slash (Express, Rails and Spring match it by
 * default), a doubled slash and a dot segment (servers that clean paths), a percent-encoded
 * unreserved character (RFC 3986 §6.2.2.2 makes it the same URI), the path in other case
 * (Express and ASP.NET match without case), a matrix parameter (Tomcat and Spring drop
 * `;…`), and an empty query. An authentication layer that compares the exact path while
 * the router does not leaves the operation open on these (section 5: "applies to every
 * operation of the service"). The active run sends them; the traffic judge recognises them.
 */
import { LRUCache } from 'lru-cache';
import { targetAsWritten } from '../core/exchange.js';

/** One spelling: its id, its words, and how it spells the path of a base URL's `/categories`. */
export interface PathSpelling {
  id: string;
  /** In words, for titles and failures: `a trailing slash`. */
  words: string;
  /** The path (and query) from the origin, given the base URL's path (`/v1`, `/api/v1`). */
  spell(basePath: string): string;
}

/** The spellings, in the order they are sent. */
export const PATH_SPELLINGS: readonly PathSpelling[] = [
  { id: 'trailing-slash', words: 'a trailing slash', spell: (base) => `${base}/categories/` },
  { id: 'double-slash', words: 'a doubled slash', spell: (base) => `${base}//categories` },
  { id: 'dot-segment', words: 'a dot segment', spell: (base) => `${base}/./categories` },
  { id: 'percent-encoded', words: 'a percent-encoded unreserved character (RFC 3986 §6.2.2.2)', spell: (base) => `${base}/%63ategories` },
  { id: 'path-case', words: 'the path in other case', spell: (base) => `${base}/Categories` },
  { id: 'version-case', words: 'the version segment in other case', spell: (base) => `${base.replace(/\/v1$/, '/V1')}/categories` },
  { id: 'matrix-parameter', words: 'a matrix parameter', spell: (base) => `${base}/categories;x=1` },
  { id: 'empty-query', words: 'an empty query', spell: (base) => `${base}/categories?` },
];

/** Unreserved characters (RFC 3986 §2.3): percent-encoding one of them changes nothing. */
const UNRESERVED = /%(2[dDeE]|3\d|[46][1-9a-fA-F]|[57][0-9aA]|5[fF]|7[eE])/g;

/**
 * The path as the lenient routers above read it: unreserved characters decoded, dot
 * segments resolved, empty segments and matrix parameters dropped, a trailing slash dropped,
 * in lower case.
 */
function leniently(path: string): string {
  const segments: string[] = [];
  for (const raw of path.replace(UNRESERVED, (escape) => String.fromCharCode(parseInt(escape.slice(1), 16))).split('/')) {
    const segment = raw.split(';', 1)[0]!;
    if (segment === '' || segment === '.') continue;
    if (segment === '..') segments.pop();
    else segments.push(segment.toLowerCase());
  }
  return `/${segments.join('/')}`;
}

/**
 * The spelling a request URL is of `{base}/categories`, for a base path ending in `/v1`
 * (9/R2), or undefined for the exact path and for any other path. Told from the URL as
 * written, never from a parsed one (which resolves dot segments): the first spelling of
 * {@link PATH_SPELLINGS} whose mark it bears names it.
 */
export function spellingOf(url: string): PathSpelling | undefined {
  let seen = spellings.get(url);
  if (seen === undefined) spellings.set(url, (seen = { spelling: spellingWritten(url) }));
  return seen.spelling;
}

/**
 * The spellings of the URLs seen last: a capture or a proxy's traffic repeats a few URLs
 * millions of times, and each look costs some microseconds of regular expressions.
 */
const spellings = new LRUCache<string, { spelling: PathSpelling | undefined }>({ max: 1024 });

function spellingWritten(url: string): PathSpelling | undefined {
  const { path, query } = targetAsWritten(url);
  if (!leniently(path).endsWith('/v1/categories')) return undefined;
  if (path.endsWith('/v1/categories')) return query === '' ? byId('empty-query') : undefined;
  const marks: Array<[string, boolean]> = [
    ['trailing-slash', path.endsWith('/')],
    ['double-slash', path.includes('//')],
    ['dot-segment', /\/\.\.?(\/|$)/.test(path)],
    ['percent-encoded', path.includes('%')],
    ['matrix-parameter', path.includes(';')],
    ['version-case', !/\/v1\/[^/]*$/.test(path.replace(/\/+$/, ''))],
  ];
  return byId(marks.find(([, marked]) => marked)?.[0] ?? 'path-case');
}

/**
 * Whether a request URL is on the interface's own path as the suite writes it: the path
 * ends with `/v1/categories` exactly, and the query is absent or not empty. Other
 * spellings ({@link spellingOf}) are requests outside the interface.
 */
export function onOperationPath(url: string): boolean {
  const { path, query } = targetAsWritten(url);
  return path.endsWith('/v1/categories') && query !== '';
}

/**
 * The spelling of its own path that a redirect answering a request points to, or undefined:
 * a `Location` (RFC 9110 §10.2.2: a URI reference, resolved against the request's URL) on
 * the same origin whose path is another spelling of the request's `{base}/categories`
 * (Django's APPEND_SLASH, a router that lowercases). Such a redirect is the service's own
 * answer to the request the spec defines, not a sign that the base URL is wrong.
 */
export function redirectedToSpelling(requestUrl: string, location: string | undefined): PathSpelling | undefined {
  if (location === undefined || !onOperationPath(requestUrl)) return undefined;
  let target: URL;
  try {
    target = new URL(location, requestUrl);
  } catch {
    return undefined;
  }
  const request = new URL(requestUrl);
  if (target.origin !== request.origin) return undefined;
  const { path } = targetAsWritten(requestUrl);
  const basePath = path.slice(0, -'/categories'.length);
  // The same path, by the lenient reading: a redirect elsewhere says the base URL is wrong.
  if (leniently(target.pathname) !== `${leniently(basePath)}/categories`) return undefined;
  return spellingOf(`${target.origin}${target.pathname}${target.search}`);
}

function byId(id: string): PathSpelling {
  return PATH_SPELLINGS.find((spelling) => spelling.id === id)!;
}
