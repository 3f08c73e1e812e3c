/**
 * Replaces secrets by value in everything the tool writes or prints: the API key and
 * every credential derived from it (a key with a character removed is still most of
 * the key). Longer secrets are replaced first, so a derived secret that contains the
 * key is shown as its own placeholder.
 */
export class Redactor {
  readonly #secrets = new Map<string, string>();
  #ordered: Array<[string, string]> = [];

  /**
   * @param secret the value to hide; values shorter than 4 characters are ignored,
   *   since replacing them would shred ordinary text and they protect nothing.
   * @param placeholder what to show instead, e.g. `<API_KEY>`.
   */
  add(secret: string, placeholder: string): this {
    if (secret.length >= 4 && !this.#secrets.has(secret)) {
      this.#secrets.set(secret, placeholder);
      this.#ordered = [...this.#secrets].sort((a, b) => b[0].length - a[0].length);
    }
    return this;
  }

  /** The text with every secret replaced by its placeholder. */
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
    let out = value;
    for (const [secret, placeholder] of this.#ordered) {
      // `includes` scans without allocating: a 10 MB body without the secret is not copied.
      if (out.includes(secret)) out = out.split(secret).join(written(placeholder));
    }
    return out;
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
