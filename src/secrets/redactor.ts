import escapeStringRegexp from 'escape-string-regexp';
import { DecodedView } from './decoded-view.js';
import { base64Forms } from './encoded-forms.js';

/** Length of the anchors secrets are found by (characters). */
const ANCHOR = 8;

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
 * Replaces secrets by value in everything the tool writes or prints: the API key and
 * every credential derived from it (a key with a character removed is still most of
 * the key). Where secrets overlap, the longest one's placeholder covers them all.
 *
 * A run registers hundreds of derived secrets (every generated credential) and scans every
 * body, so a scan must not cost one pass per secret. Each secret is filed under an anchor,
 * an 8-character piece it holds; secrets one edit away from the key share the key's
 * anchors, so a scan is a few native `indexOf` passes whatever the number of secrets, and
 * only where an anchor occurs are the secrets filed under it compared.
 */
export class Redactor {
  readonly #secrets = new Set<string>();
  /** Anchors searched for, with the secrets filed under each. */
  readonly #anchors = new Map<string, Entry[]>();
  /** Other pieces of earlier secrets, offered as anchors to later ones. */
  readonly #spare: string[] = [];
  /** Length of the shortest secret: a shorter text holds none (in any escaped form either, which is longer). */
  #shortest = Infinity;
  /**
   * Texts already redacted, with their result: a report writes each body and header in
   * several formats. Emptied whenever a secret is added, and past {@link CACHED_CHARS}.
   */
  readonly #done = new Map<string, string>();
  #doneChars = 0;
  /** {@link #anchorStarts}, built again after a secret is filed under a new anchor. */
  #starts: RegExp | undefined;

  /** Adds every secret of a list, each with the form it is shown in (credentials derived from the key). */
  addAll(secrets: Iterable<{ value: string; shown: string }>): this {
    for (const { value, shown } of secrets) this.add(value, shown);
    return this;
  }

  /**
   * @param secret the value to hide; values shorter than 4 characters are ignored,
   *   since replacing them would shred ordinary text and they protect nothing.
   * @param placeholder what to show instead, e.g. `<API_KEY>`.
   */
  add(secret: string, placeholder: string): this {
    if (secret.length < 4 || this.#secrets.has(secret)) return this;
    // Echoed in base64 (a Basic header, a token): found by the forms that hold only its bytes.
    for (const form of base64Forms(secret)) this.#file(form, `[base64 of ${placeholder}]`);
    return this.#file(secret, placeholder);
  }

  /** Files one secret under an anchor it holds. */
  #file(secret: string, placeholder: string): this {
    if (this.#secrets.has(secret)) return this;
    this.#secrets.add(secret);
    this.#shortest = Math.min(this.#shortest, secret.length);
    this.#forget();
    let anchor = [...this.#anchors.keys(), ...this.#spare].find((piece) => secret.includes(piece));
    if (anchor === undefined) {
      // Start, middle and end: an edit to a later secret spares at least one of them.
      const size = Math.min(ANCHOR, secret.length);
      const middle = Math.floor((secret.length - size) / 2);
      const pieces = [secret.slice(0, size), secret.slice(middle, middle + size), secret.slice(-size)];
      anchor = pieces[0]!;
      this.#spare.push(...pieces.slice(1));
    }
    const entries = this.#anchors.get(anchor) ?? [];
    if (entries.length === 0) this.#starts = undefined;
    entries.push({ secret, placeholder, offset: secret.indexOf(anchor) });
    this.#anchors.set(anchor, entries);
    return this;
  }

  /** The text with every secret replaced by its placeholder (the same string when it holds none). */
  text(value: string): string {
    if (value.length < this.#shortest) return value;
    const done = this.#done.get(value);
    if (done !== undefined) return done;
    const redacted = this.#replace(value, (placeholder) => placeholder);
    if (value.length <= CACHED_TEXT_CHARS) {
      if (this.#doneChars + value.length > CACHED_CHARS) this.#forget();
      this.#done.set(value, redacted);
      this.#doneChars += value.length;
    }
    return redacted;
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
    return this.#replace(value, (placeholder) => JSON.stringify(placeholder).slice(1, -1));
  }

  #replace(value: string, written: (placeholder: string) => string): string {
    const found = this.#occurrences(value);
    if (found.length === 0) return value;
    // Overlapping occurrences merge into one span, shown as the longest secret among them.
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

  /**
   * Every occurrence of every secret, as written or escaped (JSON, percent, HTML: see
   * DecodedView), as spans of `value`.
   */
  #occurrences(value: string): Array<{ start: number; end: number; placeholder: string }> {
    const found = this.#scan(value);
    const view = this.#anchors.size > 0 ? DecodedView.of(value) : undefined;
    if (view) {
      for (const { start, end, placeholder } of this.#scan(view.text)) {
        const [from, to] = view.original(start, end);
        found.push({ start: from, end: to, placeholder });
      }
    }
    return found;
  }

  /**
   * Every occurrence of every secret in `value`: one native regular-expression pass finds
   * where any anchor starts (a lookahead, so overlapping anchors are all found; about 6
   * times faster than one `indexOf` pass per anchor over a 2.4 MB HAR), and only there are
   * the secrets filed under the anchors compared.
   */
  #scan(value: string): Array<{ start: number; end: number; placeholder: string }> {
    const found: Array<{ start: number; end: number; placeholder: string }> = [];
    const starts = this.#anchorStarts();
    if (!starts) return found;
    starts.lastIndex = 0;
    for (let match = starts.exec(value); match; match = starts.exec(value)) {
      const at = match.index;
      starts.lastIndex = at + 1;
      for (const [anchor, entries] of this.#anchors) {
        if (!value.startsWith(anchor, at)) continue;
        for (const { secret, placeholder, offset } of entries) {
          const start = at - offset;
          if (start >= 0 && value.startsWith(secret, start)) found.push({ start, end: start + secret.length, placeholder });
        }
      }
    }
    return found;
  }

  /** A pattern matching, without consuming, wherever any anchor starts; undefined when there is none. */
  #anchorStarts(): RegExp | undefined {
    if (this.#anchors.size === 0) return undefined;
    this.#starts ??= new RegExp(`(?=${[...this.#anchors.keys()].map(escapeStringRegexp).join('|')})`, 'g');
    return this.#starts;
  }

  /** A deep copy of a JSON-like value with every string (keys included) redacted. */
  value<T>(value: T): T {
    if (typeof value === 'string') return this.text(value) as T;
    if (Array.isArray(value)) return value.map((item) => this.value(item)) as T;
    if (value !== null && typeof value === 'object') {
      return Object.fromEntries(
        Object.entries(value).map(([key, child]) => [this.text(key), this.value(child)]),
      ) as T;
    }
    return value;
  }
}

function isJson(text: string): boolean {
  try {
    JSON.parse(text);
    return true;
  } catch {
    return false;
  }
}

/** The shell variable that stands for the API key in everything shown. */
export const KEY_VARIABLE = 'PETSTORE_API_KEY';

/**
 * A shell parameter expansion of the key variable, so a shown credential stays
 * runnable in bash: `keyExpression()` is `${PETSTORE_API_KEY}`, `keyExpression('%?')`
 * the key without its last character, `keyExpression('~~')` the key with case swapped.
 */
export function keyExpression(operator = ''): string {
  return `\${${KEY_VARIABLE}${operator}}`;
}

/** The placeholder shown in place of the API key. */
export const KEY_PLACEHOLDER = keyExpression();
