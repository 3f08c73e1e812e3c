import { targetAsWritten, type RecordedRequest } from '../core/exchange.js';
import { KEY_VARIABLE } from '../secrets/redactor.js';

/**
 * A bash command that sends the recorded request again with curl. Credentials appear as
 * expansions of `$PETSTORE_API_KEY` (the recorded form), so the command holds no secret
 * and replays the exact credential once the variable is set; so do headers read from the
 * environment (`${VARIABLE}`). Everything else is quoted
 * literally, in POSIX single quotes.
 */
export function curlCommand(request: RecordedRequest): string {
  // curl resolves dot segments before sending (RFC 3986 §5.2.4) unless told not to: a spelling of a path is sent as recorded.
  const dotSegments = /\/\.\.?(\/|$)/.test(targetAsWritten(request.url).path);
  const parts = ['curl -sS -i', ...(dotSegments ? ['--path-as-is'] : []), `-X ${quoted(request.method)}`, keyQuoted(request.url)];
  for (const [name, value] of Object.entries(request.headers)) {
    const header = `${name}: ${value}`;
    parts.push(`-H ${SECRET_HEADER.test(value) ? doubleQuoted(header) : keyQuoted(header)}`);
  }
  // curl sends `Accept: */*` of its own: a request sent without Accept is replayed without it.
  if (request.headers.accept === undefined) parts.push(`-H ${quoted('accept:')}`);
  // The key may stand in a query or a form body too (http/key-placement.ts).
  if (request.body !== undefined) parts.push(`--data-binary ${keyQuoted(request.body)}`);
  // A cut body cannot be sent again as recorded: the replay command (the seed) sends it whole.
  if (request.bodyBytes !== undefined) parts.push(`# the body sent was ${request.bodyBytes} bytes, recorded truncated`);
  return parts.join(' ');
}

/** How a header read from the environment (`--header-env`) is recorded: `${VARIABLE}`. */
const SECRET_HEADER = /^\$\{[A-Za-z_][A-Za-z0-9_]*\}$/;

/** Double quotes when the text holds an expansion of the key variable (it is then replayed live), single quotes otherwise. */
function keyQuoted(text: string): string {
  return text.includes(KEY_VARIABLE) ? doubleQuoted(text) : quoted(text);
}

/** POSIX single quotes: every character literal, a quote written as '\''. */
function quoted(text: string): string {
  return `'${text.replace(/'/g, `'\\''`)}'`;
}

/** Double quotes that keep `${PETSTORE_API_KEY…}` and `$(…)` expansions live and escape the rest. */
function doubleQuoted(text: string): string {
  return `"${text.replace(/["\\`]/g, (c) => `\\${c}`)}"`;
}
