/**
 * How a client writes a request. The interface defines its payloads as `application/json`
 * (spec section 4) and no header but Authorization (4.1, 4.2): two requests that mean the
 * same thing must get the same answer, however a real client escapes, orders and
 * negotiates them. A form is one way of writing; the suite sends its requests in many.
 * Framing is a form's dimension too, but a transport feature the interface does not rely
 * on (http/request-variations.ts): the must checks never draw it, the transport checks do.
 */

/** How the JSON text of a body is written (RFC 8259): every dialect denotes the same value. */
export type JsonDialect = 'compact' | 'escaped-non-ascii' | 'escaped-slash' | 'pretty-crlf' | 'keys-reversed' | 'spaced';

/** How the body is framed on the wire (RFC 9112 §6): a Content-Length, or chunked transfer coding. */
export type Framing = 'content-length' | 'chunked';

/** One way of writing a request. */
export interface ClientForm {
  json: JsonDialect;
  /** The Accept header; null sends none. */
  accept: string | null;
  /** The Content-Type of a request with a body. */
  contentType: string;
  framing: Framing;
}

/** How the suite writes a request unless told otherwise: compact UTF-8 JSON, keys in schema order. */
export const BASELINE_FORM: ClientForm = { json: 'compact', accept: 'application/json', contentType: 'application/json', framing: 'content-length' };

/** Every JSON dialect, with how real clients come to write it. */
export const JSON_DIALECTS: Readonly<Record<JsonDialect, string>> = {
  compact: 'compact UTF-8 JSON',
  'escaped-non-ascii': "every non-ASCII character escaped as \\uXXXX, characters outside the BMP as surrogate pairs (as Python's json.dumps and Jackson's ESCAPE_NON_ASCII write them)",
  'escaped-slash': '"/" escaped as "\\/" (as PHP\'s json_encode writes it)',
  'pretty-crlf': "pretty-printed with CRLF line ends and indentation (as .NET's indented writer does on Windows)",
  'keys-reversed': "description before name (as Go's encoding/json writes a map: keys sorted)",
  spaced: "insignificant whitespace wherever RFC 8259 §2 allows it (Python's json.dumps writes \", \" and \": \")",
};

/**
 * Accept values that real clients send, each admitting `application/json` (RFC 9110
 * §12.5.1), so each must get the ordinary answer. null: no Accept at all.
 */
export const ACCEPT_VALUES: ReadonlyArray<{ value: string | null; who: string }> = [
  { value: 'application/json', who: 'as the suite sends it' },
  { value: null, who: 'no Accept header, as many HTTP libraries send' },
  { value: '*/*', who: 'as curl and Python requests send it' },
  { value: 'application/json, text/plain, */*', who: 'as axios sends it' },
  { value: 'application/*', who: 'a media range of the application type' },
];

/** Content-Type values that name `application/json` (RFC 9110 §8.3: parameters and case do not change the type). */
export const CONTENT_TYPES: ReadonlyArray<{ value: string; who: string }> = [
  { value: 'application/json', who: 'as the suite sends it' },
  { value: 'application/json; charset=utf-8', who: "as OkHttp, Java's HttpClient and .NET send it" },
];

/** Framings, with who sends each. */
export const FRAMINGS: Readonly<Record<Framing, string>> = {
  'content-length': 'a Content-Length',
  chunked: 'Transfer-Encoding: chunked, without Content-Length (as a client streaming its body sends it, RFC 9112 §7.1)',
};

/** Whether a form is the suite's own way of writing ({@link BASELINE_FORM}) in every dimension. */
export function isBaselineForm(form: ClientForm): boolean {
  return form.json === BASELINE_FORM.json && form.accept === BASELINE_FORM.accept && form.contentType === BASELINE_FORM.contentType && form.framing === BASELINE_FORM.framing;
}

/**
 * A form in words, naming only where it differs from {@link BASELINE_FORM}: `the body
 * written with "/" escaped as "\/" (as PHP's json_encode writes it)`.
 */
export function describeForm(form: ClientForm): string {
  const parts: string[] = [];
  if (form.json !== BASELINE_FORM.json) parts.push(`the body written with ${JSON_DIALECTS[form.json]}`);
  if (form.accept !== BASELINE_FORM.accept) {
    const who = ACCEPT_VALUES.find((accept) => accept.value === form.accept)?.who;
    parts.push(form.accept === null ? 'without an Accept header' : `Accept: ${form.accept}${who ? ` (${who})` : ''}`);
  }
  if (form.contentType !== BASELINE_FORM.contentType) {
    const who = CONTENT_TYPES.find((type) => type.value === form.contentType)?.who;
    parts.push(`Content-Type: ${form.contentType}${who ? ` (${who})` : ''}`);
  }
  if (form.framing !== BASELINE_FORM.framing) parts.push(`framed with ${FRAMINGS[form.framing]}`);
  return parts.length === 0 ? 'written as the suite writes it (compact UTF-8 JSON, Accept: application/json)' : parts.join(', ');
}

/**
 * The forms of the same request (`same-request` in http/request-variations.ts) that differ
 * from {@link BASELINE_FORM} in one way each: every JSON dialect, every Accept value, every
 * Content-Type. A failure in one names exactly what the server treats differently. No
 * framing: chunked bodies are a transport feature, judged by their own checks.
 */
export function singleVariations(): ClientForm[] {
  return [
    ...(Object.keys(JSON_DIALECTS) as JsonDialect[]).filter((json) => json !== BASELINE_FORM.json).map((json) => ({ ...BASELINE_FORM, json })),
    ...ACCEPT_VALUES.filter(({ value }) => value !== BASELINE_FORM.accept).map(({ value }) => ({ ...BASELINE_FORM, accept: value })),
    ...CONTENT_TYPES.filter(({ value }) => value !== BASELINE_FORM.contentType).map(({ value }) => ({ ...BASELINE_FORM, contentType: value })),
  ];
}

/** The suite's own form framed with `Transfer-Encoding: chunked`: what the transport checks send. */
export const CHUNKED_FORM: ClientForm = { ...BASELINE_FORM, framing: 'chunked' };

/**
 * `value` as JSON text in `dialect`. Every dialect parses back to the same value as
 * `JSON.stringify(value)` does (test/unit/client-form.test.ts holds that round trip).
 */
export function writeJson(value: unknown, dialect: JsonDialect): string {
  switch (dialect) {
    case 'compact':
      return JSON.stringify(value);
    case 'escaped-non-ascii':
      // UTF-16 units: an astral character becomes its two surrogates, as Python writes it.
      return JSON.stringify(value).replace(/[\u0080-\uffff]/g, (unit) => `\\u${unit.charCodeAt(0).toString(16).padStart(4, '0')}`);
    case 'escaped-slash':
      // A "/" occurs only inside strings in JSON text.
      return JSON.stringify(value).replaceAll('/', '\\/');
    case 'pretty-crlf':
      // Line breaks inside strings are escaped, so every raw line feed is formatting.
      return JSON.stringify(value, null, 2).replaceAll('\n', '\r\n');
    case 'keys-reversed':
      return JSON.stringify(reversedKeys(value));
    case 'spaced':
      return spaced(JSON.stringify(value));
  }
}

/** The value with the keys of every object in reverse order. */
function reversedKeys(value: unknown): unknown {
  if (Array.isArray(value)) return value.map(reversedKeys);
  if (value === null || typeof value !== 'object') return value;
  // fromEntries defines own properties, so a "__proto__" key stays data.
  return Object.fromEntries(Object.entries(value).reverse().map(([key, child]) => [key, reversedKeys(child)]));
}

/** The four whitespace characters of RFC 8259 §2, in turns, around every structural character. */
const WHITESPACE = [' ', '\t', '\r\n', '\n  ', '  \t'];

/** Compact JSON text with whitespace before and after the text and every structural character, strings untouched. */
function spaced(text: string): string {
  let turn = 0;
  const next = () => WHITESPACE[turn++ % WHITESPACE.length]!;
  // A string token (escapes included) is kept as it is; a structural character gets whitespace on both sides.
  const inner = text.replace(/"(?:[^"\\]|\\.)*"|[{}[\]:,]/g, (token) => (token.startsWith('"') ? token : `${next()}${token}${next()}`));
  return `${next()}${inner}${next()}`;
}
