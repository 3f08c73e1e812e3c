import { DecodedView } from './decoded-view.js';
import { base64Forms } from './encoded-forms.js';

/** Length of the anchors secrets are found by (characters). */
const ANCHOR = 8;

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
    entries.push({ secret, placeholder, offset: secret.indexOf(anchor) });
    this.#anchors.set(anchor, entries);
    return this;
  }

  /** The text with every secret replaced by its placeholder (the same string when it holds none). */
  text(value: string): string {
    return this.#replace(value, (placeholder) => placeholder);
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

  /** Every occurrence of every secret in `value`: a native scan per anchor, comparisons only where one occurs. */
  #scan(value: string): Array<{ start: number; end: number; placeholder: string }> {
    const found: Array<{ start: number; end: number; placeholder: string }> = [];
    for (const [anchor, entries] of this.#anchors) {
      for (let at = value.indexOf(anchor); at !== -1; at = value.indexOf(anchor, at + 1)) {
        for (const { secret, placeholder, offset } of entries) {
          const start = at - offset;
          if (start >= 0 && value.startsWith(secret, start)) found.push({ start, end: start + secret.length, placeholder });
        }
      }
    }
    return found;
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
