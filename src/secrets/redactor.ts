import escapeStringRegexp from 'escape-string-regexp';
import { DecodedView } from './decoded-view.js';
import { base64Forms, pieceTexts } from './encoded-forms.js';
import { foldedText, PIECE_CHARS, SecretPieces, WindowFilter, type PieceSpan } from './pieces.js';

/** Length of the anchors secrets are found by (characters): a piece's, so that one filter (pieces.ts) finds where they may start. */
const ANCHOR = PIECE_CHARS;

/** Texts up to this many characters are remembered once redacted (a header, the body of a create). */
const CACHED_TEXT_CHARS = 64 * 1024;
/** Characters of the texts remembered at most (they stay alive while remembered): past it, the memory starts over. */
const CACHED_CHARS = 4 * 1024 * 1024;

/** A registered secret, found through an anchor it holds at `offset`. */
interface Entry {
  secret: string;
  placeholder: string;
  offset: number;
}

/**
 * A secret at least this long (characters) is redacted wherever it occurs inside text; a
 * shorter one only where it stands as a whole token ({@link Redactor}): replacing every
 * `name` or `test` inside server text would destroy the evidence it is found in.
 */
export const SUBSTRING_SECRET_CHARS = 16;


/**
 * Replaces secrets by value in everything the tool writes or prints: the API key and
 * every credential derived from it (a key with a character removed is still most of
 * the key). Where secrets overlap, the longest one's placeholder covers them all.
 * Redaction runs when a value is written, never before judging: a server is judged on
 * what it sent.
 *
 * Two modes, by the secret's length:
 * - a secret of {@link SUBSTRING_SECRET_CHARS} characters or more, and any secret of 8 or
 *   more that holds a piece of one (a credential one edit away from a long key), is found
 *   wherever it occurs, as written or escaped (JSON, percent, HTML, base64, hex, case);
 * - a shorter secret is found only as a whole token: the whole value (a header, a JSON
 *   string), a JSON string value in a text (`"test"`, not a member name `"test":`), or a
 *   credential after an authentication scheme (`Bearer test`, RFC 9110 §11.4);
 * - every piece of {@link PIECE_CHARS} characters or more of a secret found inside text,
 *   whatever its case, as written, in base64 or base64url at any alignment, in hex, and
 *   escaped once or twice (percent, JSON `\u`, HTML) (secrets/pieces.ts): an echo with a
 *   prefix dropped, split in two or cut at the recording limit gives nothing back;
 * - in what a server sent (response headers, bodies, previews), also every piece of a
 *   shorter secret given as such, as written: in the tool's own text such a piece could
 *   be an ordinary word.
 *
 * A run registers hundreds of derived secrets (every generated credential) and scans every
 * body, so a scan must not cost one pass per secret. Each secret is filed under an anchor,
 * an 8-character piece it holds; secrets one edit away from the key share the key's
 * anchors, so a scan is one pass whatever the number of secrets (a {@link WindowFilter}
 * over the anchors), and only where an anchor occurs are the secrets filed under it compared.
 */
export class Redactor {
  readonly #secrets = new Set<string>();
  /** Anchors searched for, with the secrets filed under each. */
  readonly #anchors = new Map<string, Entry[]>();
  /** The secrets found whole only ({@link addWhole}), ASCII letters lower-cased, under their first {@link ANCHOR} characters so folded. */
  readonly #foldedAnchors = new Map<string, Entry[]>();
  /** Other pieces of earlier secrets, offered as anchors to later ones. */
  readonly #spare = new Set<string>();
  /** Length of the shortest secret: a shorter text holds none (in any escaped form either, which is longer). */
  #shortest = Infinity;
  /**
   * Secrets found only as whole tokens, with their placeholders; `credentialOnly`: found
   * only after an authentication scheme (a short credential derived from the key: its
   * fragments, such as its last character, are no secret on their own).
   */
  readonly #tokens = new Map<string, { placeholder: string; credentialOnly: boolean }>();
  /** {@link #tokenPattern}, built again after a token secret is added. */
  #tokenPattern: RegExp | undefined;
  /** The pieces of the secrets found inside text, in every encoding (encoded-forms.ts): looked for in everything written. */
  readonly #pieces = new SecretPieces();
  /** The pieces that hold a `"` or a `\`: looked for in text that is no JSON document, and in decoded views (see SecretPieces). */
  readonly #quotedPieces = new SecretPieces(true);
  /** The pieces of shorter secrets given as such (not derived), as written: looked for only in what a server sent (headers, bodies, previews). */
  readonly #shortPieces = new SecretPieces();
  /** Each token secret as written after a scheme, plain or JSON-escaped, to the secret. */
  #credentialForms = new Map<string, string>();
  /**
   * Texts already redacted, with their result: a report writes each body and header in
   * several formats. Emptied whenever a secret is added, and past {@link CACHED_CHARS}.
   */
  readonly #done = new Map<string, string>();
  #doneChars = 0;
  /** Where an anchor may start in a text (every secret filed is 8 characters or more, so every anchor is {@link ANCHOR} long). */
  readonly #anchorFilter = new WindowFilter();

  /** Adds every secret of a list, each with the form it is shown in (secret headers, other targets' keys). */
  addAll(secrets: Iterable<{ value: string; shown: string }>): this {
    for (const { value, shown } of secrets) this.add(value, shown);
    return this;
  }

  /**
   * Adds the credentials derived from the key (a character removed, case swapped), each
   * with its shown form: found inside text like the key when they hold a piece of a long
   * one, else only as a credential after a scheme.
   */
  addDerived(secrets: Iterable<{ value: string; shown: string }>): this {
    for (const { value, shown } of secrets) this.add(value, shown, true);
    return this;
  }

  /**
   * Adds a secret found only whole, whatever the case of its ASCII letters: no pieces, no
   * base64 or hex forms. For the many secrets of a capture beyond the first few (a fresh
   * session cookie per answer): each costs its own length once, one entry, and a scan no
   * more, where the full treatment of thousands made every later text dearer (a shorter
   * one is a whole token).
   */
  addWhole(secret: string, placeholder: string): this {
    if (secret.length < ANCHOR) return this.add(secret, placeholder);
    // One entry whatever its case: a capture's thousands of cookies are filed once each, and compared folded.
    const folded = foldedText(secret);
    const anchor = folded.slice(0, ANCHOR);
    const entries = this.#foldedAnchors.get(anchor);
    if (entries?.some((entry) => entry.secret === folded)) return this;
    if (this.#doneChars > 0) this.#forget();
    this.#shortest = Math.min(this.#shortest, secret.length);
    const entry = { secret: folded, placeholder, offset: 0 };
    if (entries) entries.push(entry);
    else {
      this.#anchorFilter.add(anchor);
      this.#foldedAnchors.set(anchor, [entry]);
    }
    return this;
  }

  /**
   * @param secret the value to hide (an empty one is ignored); its length decides how it
   *   is found (see the class).
   * @param placeholder what to show instead, e.g. `${PETSTORE_API_KEY}`.
   * @param derived see {@link addDerived}.
   */
  add(secret: string, placeholder: string, derived = false): this {
    if (secret === '' || this.#secrets.has(secret) || this.#tokens.has(secret)) return this;
    if (!this.#foundInside(secret)) {
      if (!derived) this.#shortPieces.add(secret, placeholder);
      this.#tokens.set(secret, { placeholder, credentialOnly: derived });
      this.#tokens.set(Buffer.from(secret).toString('base64'), { placeholder: `[base64 of ${placeholder}]`, credentialOnly: derived });
      this.#tokenPattern = undefined;
      this.#shortest = Math.min(this.#shortest, secret.length);
      this.#forget();
      return this;
    }
    this.#file(secret, placeholder);
    for (const form of pieceTexts(secret, placeholder)) {
      this.#pieces.add(form.text, form.placeholder);
      this.#quotedPieces.add(form.text, form.placeholder);
    }
    // A text as short as a piece may hold one.
    if (this.#pieces.size > 0) this.#shortest = Math.min(this.#shortest, PIECE_CHARS);
    // Echoed in base64 (a Basic header, a token) or hex: found by the forms that hold only its bytes.
    for (const form of base64Forms(secret)) this.#file(form, `[base64 of ${placeholder}]`);
    const hex = Buffer.from(secret, 'utf8').toString('hex');
    for (const form of new Set([hex, hex.toUpperCase()])) this.#file(form, `[hex of ${placeholder}]`);
    // Echoed after a case folding (a header normalised, a lower-cased log line).
    for (const form of new Set([secret.toLowerCase(), secret.toUpperCase()])) this.#file(form, placeholder);
    return this;
  }

  /** Whether a secret is found inside text (see the class), rather than as a whole token only. */
  #foundInside(secret: string): boolean {
    if (secret.length >= SUBSTRING_SECRET_CHARS) return true;
    return secret.length >= ANCHOR && this.#knownPieceIn(secret) !== undefined;
  }

  /**
   * A piece of an earlier secret that `secret` holds: an anchor first, else a spare piece;
   * undefined for none. Each of its windows is looked up (a set each), so that filing a
   * secret costs its own length, not the secrets filed before: a capture with a fresh
   * cookie per answer registers thousands (a scan over all of them made `judge` quadratic).
   */
  #knownPieceIn(secret: string): string | undefined {
    let spare: string | undefined;
    for (let start = 0; start + ANCHOR <= secret.length; start++) {
      const window = secret.slice(start, start + ANCHOR);
      if (this.#anchors.has(window)) return window;
      if (spare === undefined && this.#spare.has(window)) spare = window;
    }
    return spare;
  }

  /**
   * Files one secret under an anchor it holds.
   * @param related whether later secrets may be one edit away from it (the key's derived
   *   credentials): it then shares an anchor with an earlier one where it can, and offers
   *   its pieces to later ones; otherwise it is filed under its first piece alone.
   */
  #file(secret: string, placeholder: string, related = true): this {
    if (this.#secrets.has(secret)) return this;
    this.#secrets.add(secret);
    this.#shortest = Math.min(this.#shortest, secret.length);
    if (this.#doneChars > 0) this.#forget();
    const size = Math.min(ANCHOR, secret.length);
    let anchor = secret.slice(0, size);
    if (related) {
      // Start, middle and end: an edit to a later secret spares at least one of them.
      const middle = Math.floor((secret.length - size) / 2);
      const pieces = [anchor, secret.slice(middle, middle + size), secret.slice(-size)];
      anchor = this.#knownPieceIn(secret) ?? anchor;
      for (const piece of pieces) if (piece !== anchor && !this.#anchors.has(piece)) this.#spare.add(piece);
    }
    const entry = { secret, placeholder, offset: secret.indexOf(anchor) };
    const entries = this.#anchors.get(anchor);
    if (entries) entries.push(entry);
    else {
      this.#anchorFilter.add(anchor);
      this.#anchors.set(anchor, [entry]);
    }
    return this;
  }

  /** The text with every secret replaced by its placeholder (the same string when it holds none). */
  text(value: string): string {
    if (value.length < this.#shortest) return value;
    const done = this.#done.get(value);
    if (done !== undefined) return done;
    const redacted = this.#replaceTokens(this.#replace(value, (placeholder) => placeholder), (placeholder) => placeholder);
    if (value.length <= CACHED_TEXT_CHARS) {
      if (this.#doneChars + value.length > CACHED_CHARS) this.#forget();
      this.#done.set(value, redacted);
      this.#doneChars += value.length;
    }
    return redacted;
  }

  /**
   * The tool's own words and the user's own values (a report path, the base URL without its
   * credentials, a seed): every whole secret replaced, as written or escaped, but no piece
   * of one. A piece is evidence of an echo only in what came from the wire; in a path such
   * as `petstore-conformance/reports`, eight characters a key `petstore-staging-…` shares
   * are the user's own words, printed whole.
   */
  own(value: string): string {
    return this.mixed(value, [value]);
  }

  /**
   * Text that mixes the wire's words with the user's own values (a console summary: a
   * server's message, and the report path of a Reproduce line): as {@link text}, but a piece
   * of a secret that lies wholly inside an occurrence of one of `values` stays, as
   * {@link own} would leave it. Whole secrets go everywhere.
   * @param values the user's own values (paths, the base URL), as they appear in `value`.
   */
  mixed(value: string, values: readonly string[]): string {
    const spared = values.filter((own) => own !== '' && value.includes(own));
    if (spared.length === 0 || value.length < this.#shortest) return this.text(value);
    const inside: Array<[number, number]> = [];
    for (const own of spared) for (let at = value.indexOf(own); at >= 0; at = value.indexOf(own, at + 1)) inside.push([at, at + own.length]);
    const whole = new Set(this.#occurrences(value, false).map((span) => `${span.start}:${span.end}`));
    const kept = this.#occurrences(value).filter((span) => whole.has(`${span.start}:${span.end}`) || !inside.some(([start, end]) => span.start >= start && span.end <= end));
    return this.#replaceTokens(spliced(value, kept, (placeholder) => placeholder), (placeholder) => placeholder);
  }

  /** Lets go of the texts remembered (up to {@link CACHED_CHARS}), once a run's files are written: a fleet holds every target's redactor. */
  forgetTexts(): void {
    this.#forget();
  }

  #forget(): void {
    this.#done.clear();
    this.#doneChars = 0;
  }

  /**
   * A message body with every secret replaced. When the body is a JSON document, each
   * placeholder is written as JSON string content (a secret in JSON text can only sit
   * inside a string): the document stays valid and parses to what {@link text} would show,
   * so a server that echoes a credential is judged on its JSON, not on our redaction.
   */
  body(value: string): string {
    const redacted = this.text(value);
    if (redacted === value || !isJson(value)) return redacted;
    const inJson = (placeholder: string) => JSON.stringify(placeholder).slice(1, -1);
    return this.#replaceTokens(this.#replace(value, inJson), inJson);
  }

  /**
   * A body the server sent: as {@link body}, and every piece of {@link PIECE_CHARS}
   * characters or more of a shorter secret given as such, whatever its case
   * (secrets/pieces.ts): a server may echo a credential split across two JSON strings.
   * Pieces never take a `"` or a `\\`, so a JSON document stays one.
   */
  responseBody(value: string): string {
    return this.#withoutPieces(this.body(value));
  }

  /**
   * A binary body's preview (its first bytes) with every secret replaced: the bytes are
   * read one character each (Latin-1, so nothing is lost), and besides whole secrets every
   * piece of one, since the preview's edge may cut a secret short. The placeholder's bytes
   * take the piece's place.
   */
  preview(bytes: Buffer): Buffer {
    const text = bytes.toString('latin1');
    const redacted = this.#withoutPieces(this.text(text));
    return redacted === text ? bytes : Buffer.from(redacted, 'latin1');
  }

  /**
   * A response header's value with every secret replaced, and every piece of one (a short
   * one's too): a key split across two headers (half in each, case-swapped or not) is
   * found in neither whole.
   */
  header(value: string): string {
    return this.#withoutPieces(this.text(value));
  }

  /** `text` with every piece of a short secret given as such replaced by its placeholder (the long ones' pieces went with {@link text}). */
  #withoutPieces(text: string): string {
    return spliced(text, this.#shortPieces.find(text), (placeholder) => placeholder);
  }

  /** `value` with every whole-token occurrence of a short secret replaced (see the class). */
  #replaceTokens(value: string, written: (placeholder: string) => string): string {
    if (this.#tokens.size === 0) return value;
    const whole = this.#tokens.get(value);
    if (whole && !whole.credentialOnly) return written(whole.placeholder);
    const pattern = this.#tokenPatternOf();
    return value.replace(pattern, (match, scheme: string | undefined, credential: string | undefined, json: string | undefined) => {
      if (scheme !== undefined) {
        const token = this.#tokens.get(this.#credentialForms.get(credential!) ?? '');
        return token === undefined ? match : scheme + written(token.placeholder);
      }
      const token = this.#tokens.get(JSON.parse(json!) as string);
      return token === undefined || token.credentialOnly ? match : `"${written(token.placeholder)}"`;
    });
  }

  /**
   * One pattern for every token occurrence: a secret after an authentication scheme, as a
   * whole token68 (RFC 9110 §11.4), or a JSON string that is one of the secrets and no member
   * name. Matches are looked up exactly (the flag `i` is for the scheme's case).
   */
  #tokenPatternOf(): RegExp {
    if (!this.#tokenPattern) {
      const secrets = [...this.#tokens.keys()].sort((a, b) => b.length - a.length);
      // A credential quoted inside a JSON string is written escaped (`Bearer \"`).
      this.#credentialForms = new Map(secrets.flatMap((secret) => [[JSON.stringify(secret).slice(1, -1), secret], [secret, secret]]));
      const credentials = [...this.#credentialForms.keys()].sort((a, b) => b.length - a.length).map(escapeStringRegexp).join('|');
      const strings = secrets.filter((secret) => !this.#tokens.get(secret)!.credentialOnly).map((secret) => escapeStringRegexp(JSON.stringify(secret))).join('|') || '(?!)';
      this.#tokenPattern = new RegExp(`(\\b(?:bearer|basic|token)\\s+)(${credentials})(?![\\w\\-~+/=]|\\.[\\w\\-.~+/=])|(${strings})(?!\\s*:)`, 'gi');
    }
    return this.#tokenPattern;
  }

  #replace(value: string, written: (placeholder: string) => string): string {
    return spliced(value, this.#occurrences(value), written);
  }

  /**
   * Every occurrence of every secret and (`withPieces`) of every piece of one, as written or
   * escaped once or twice (JSON, percent, HTML: see DecodedView), as spans of `value`. The decoded views
   * are made once, and each is searched once for secrets and once for pieces.
   */
  #occurrences(value: string, withPieces = true): Span[] {
    const whole = this.#scan(value);
    if (this.#anchors.size === 0 && this.#foldedAnchors.size === 0) return whole;
    // A `"` in a JSON document's own text delimits a string: a piece holding one is looked for there only once decoded,
    // and only where every `"` it takes was escaped (a decoded view keeps the document's own quotes as they were).
    // Asked only of a key that holds `"` or `\`: parsing a large list costs.
    const document = this.#quotedPieces.size > 0 && JSON_DOCUMENT.test(value) && isJson(value);
    const pieces = withPieces ? [...this.#pieces.find(value), ...(document ? [] : this.#quotedPieces.find(value))] : [];

    // Decoded once (an escaped echo), then once more (percent-encoded twice: a URL inside a URL).
    const once = DecodedView.of(value);
    const twice = once && DecodedView.of(once.text);
    for (const [view, outer] of [[once, undefined], [twice, once]] as const) {
      if (!view) continue;
      const inOriginal = ({ start, end, placeholder }: Span): Span => {
        const [from, to] = view.original(start, end);
        const [first, last] = outer ? outer.original(from, to) : [from, to];
        return { start: first, end: last, placeholder };
      };
      whole.push(...this.#scan(view.text).map(inOriginal));
      const escapedQuotesOnly = (start: number, end: number) => {
        const span = inOriginal({ start, end, placeholder: '' });
        return !takesDelimiter(value.slice(span.start, span.end));
      };
      if (withPieces) pieces.push(...[...this.#pieces.find(view.text), ...this.#quotedPieces.find(view.text, document ? escapedQuotesOnly : undefined)].map(inOriginal));
    }
    // A whole secret is shown as itself; pieces cover only what no whole secret does (two keys side by side stay two).
    return [...whole, ...outside(pieces, whole)];
  }

  /**
   * Every occurrence of every secret in `value`: one pass finds where an anchor may start
   * (the anchors' {@link WindowFilter}, which skips most of a text that holds none: 0.20 ms
   * on a 235 KB list, where the one native regular-expression pass it replaced took 0.36),
   * and only there are the secrets filed under the anchor compared.
   */
  #scan(value: string): Span[] {
    const found: Span[] = [];
    if (this.#anchors.size === 0 && this.#foldedAnchors.size === 0) return found;
    const folded = this.#foldedAnchors.size > 0;
    this.#anchorFilter.visit(value, (at) => {
      const window = value.slice(at, at + ANCHOR);
      for (const { secret, placeholder, offset } of this.#anchors.get(window) ?? []) {
        const start = at - offset;
        if (start >= 0 && value.startsWith(secret, start)) found.push({ start, end: start + secret.length, placeholder });
      }
      if (!folded) return;
      for (const { secret, placeholder } of this.#foldedAnchors.get(foldedText(window)) ?? []) {
        if (foldedText(value.slice(at, at + secret.length)) === secret) found.push({ start: at, end: at + secret.length, placeholder });
      }
    });
    return found;
  }

  /**
   * A deep copy of a JSON-like value with every string value redacted. Member names are
   * the tool's own (fields, header names) and stay as they are.
   */
  value<T>(value: T): T {
    if (typeof value === 'string') return this.text(value) as T;
    if (Array.isArray(value)) return value.map((item) => this.value(item)) as T;
    if (value !== null && typeof value === 'object') {
      return Object.fromEntries(Object.entries(value).map(([key, child]) => [key, this.value(child)])) as T;
    }
    return value;
  }
}

/** A span of text to replace, and what to show instead. */
type Span = PieceSpan;

/**
 * The parts of `spans` that lie outside every span of `covered` and are still pieces on
 * their own ({@link PIECE_CHARS} or more), each keeping its placeholder: what a piece adds
 * beside a whole secret is only what is a piece without it (`Bearer ` before a key is not).
 */
function outside(spans: Span[], covered: Span[]): Span[] {
  if (covered.length === 0 || spans.length === 0) return spans;
  const sorted = [...covered].sort((a, b) => a.start - b.start);
  const parts: Span[] = [];
  for (const span of spans) {
    let at = span.start;
    for (const cover of sorted) {
      if (cover.end <= at) continue;
      if (cover.start >= span.end) break;
      if (cover.start > at) parts.push({ ...span, start: at, end: cover.start });
      at = Math.max(at, cover.end);
    }
    if (at < span.end) parts.push({ ...span, start: at });
  }
  return parts.filter((part) => part.end - part.start >= PIECE_CHARS);
}

/**
 * `value` with each span of `found` replaced by its placeholder, as `written` writes it.
 * Overlapping spans merge into one, shown as the longest secret among them.
 */
function spliced(value: string, found: Span[], written: (placeholder: string) => string): string {
  if (found.length === 0) return value;
  found.sort((a, b) => a.start - b.start);
  let out = '';
  let at = 0;
  for (let i = 0; i < found.length; ) {
    const first = found[i]!;
    let longest = first;
    let end = first.end;
    for (i++; i < found.length && found[i]!.start < end; i++) {
      const next = found[i]!;
      if (next.end - next.start > longest.end - longest.start) longest = next;
      end = Math.max(end, next.end);
    }
    out += value.slice(at, first.start) + written(longest.placeholder);
    at = end;
  }
  return out + value.slice(at);
}

/** Text that may be a JSON document (an object, an array or a string), by its first character; {@link isJson} decides. */
const JSON_DOCUMENT = /^\s*[[{"]/;

/** Whether JSON text holds a `"` that no escape wrote (`\"`, `\u0022`): a string's own delimiter. */
function takesDelimiter(text: string): boolean {
  return text.replace(/\\(u[0-9a-fA-F]{4}|.)/g, '').includes('"');
}

function isJson(text: string): boolean {
  try {
    JSON.parse(text);
    return true;
  } catch {
    return false;
  }
}

/**
 * What the user is told, once, about a secret shorter than {@link SUBSTRING_SECRET_CHARS}
 * (`what`: `the key`, `the value of X-Gateway-Key`); undefined for a longer one.
 */
export function shortSecretNotice(what: string, secret: string): string | undefined {
  if (secret.length >= SUBSTRING_SECRET_CHARS) return undefined;
  return `${what} is ${secret.length} characters long: it is removed from requests and headers, but where the server echoes it inside text it may stay (${SUBSTRING_SECRET_CHARS} characters or more are redacted everywhere)`;
}

/** The shell variable that stands for the API key in everything shown. */
export const KEY_VARIABLE = 'PETSTORE_API_KEY';

/** The placeholder shown in place of the API key: the variable's expansion, so a shown credential replays under any POSIX sh. */
export const KEY_PLACEHOLDER = `\${${KEY_VARIABLE}}`;
