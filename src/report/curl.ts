import { execFile } from 'node:child_process';
import { promisify } from 'node:util';
import { targetAsWritten, type RecordedRequest } from '../core/exchange.js';
import { UsageError } from '../core/errors.js';
import { KEY_VARIABLE } from '../secrets/redactor.js';

/**
 * A POSIX sh command (dash, bash, zsh alike) that sends the recorded request again with
 * curl. Credentials appear as expansions of `$PETSTORE_API_KEY` (the recorded form), so
 * the command holds no secret and replays the exact credential once the variable is set;
 * so do headers read from the environment (`${VARIABLE}`). Each variable it reads is
 * required first (`${VAR:?set VAR}`): pasted where it is unset, the command stops with
 * that word instead of sending an empty credential the server refuses, which would read as
 * a failure that does not reproduce. The key is exported, for the `node -p` expansions of
 * derived credentials. Everything else is quoted literally, in POSIX single quotes.
 */
export function curlCommand(request: RecordedRequest): string {
  return curlParts(request).join(' ');
}

/**
 * {@link curlCommand}'s parts, each whole words (`-H 'accept:'`), in order: where the
 * console may break the command across lines with a ` \` continuation.
 */
export function curlParts(request: RecordedRequest): string[] {
  const headers = Object.values(request.headers);
  const needsKey = [request.url, ...headers, request.body ?? ''].some((text) => text.includes(KEY_VARIABLE));
  const variables = [...new Set(headers.flatMap((value) => SECRET_HEADER.exec(value)?.[1] ?? []))].filter((name) => name !== KEY_VARIABLE);
  return [...(needsKey ? [`export ${KEY_VARIABLE}="${required(KEY_VARIABLE)}" &&`] : []), ...variables.map((name) => `: "${required(name)}" &&`), ...curlWords(request)];
}

/** The expansion that stops the command when the variable is unset or empty (POSIX sh, 2.6.2). */
const required = (name: string) => `\${${name}:?set ${name}}`;

/** The curl command alone, in parts. */
function curlWords(request: RecordedRequest): string[] {
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
  return parts;
}

/**
 * A recorded text as the curl line's shell expands it: one that holds the key's variable, or
 * a header read from the environment (`${VARIABLE}`), through `sh` with `env` (derived
 * credentials are recorded as expansions of the key, `$(node -p …)` among them); any other
 * as written. `replay` sends what this gives, so it sends what curl would.
 * @throws UsageError when a variable it needs is unset or empty (nothing is sent).
 */
export async function curlExpanded(text: string, env: NodeJS.ProcessEnv): Promise<string> {
  const variable = text.includes(KEY_VARIABLE) ? KEY_VARIABLE : SECRET_HEADER.exec(text)?.[1];
  if (variable === undefined) return text;
  if (!env[variable]) throw new UsageError(`set ${variable}: the request carries it (read from the environment, as the report's curl line reads it)`);
  const { stdout } = await promisify(execFile)('/bin/sh', ['-c', `printf '%s' ${doubleQuoted(text)}`], { env: { ...env, PATH: env.PATH ?? process.env.PATH } });
  return stdout;
}

/** How a header read from the environment (`--header-env`) is recorded: `${VARIABLE}`. */
const SECRET_HEADER = /^\$\{([A-Za-z_][A-Za-z0-9_]*)\}$/;

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

/**
 * The failure that reproduces a root cause: of its checks' failures that carry a request,
 * the one with the shortest curl command among those curl can send as they went (no body
 * in chunks); only when every one went framed, the first (its replay sends the chunks).
 * @param failures the root cause's checks' failures, in its order.
 */
export function reproducing<T extends { request: RecordedRequest; replay?: string }>(failures: ReadonlyArray<T | undefined>): T | undefined {
  const sent = failures.filter((failure): failure is T => failure?.request.url !== undefined && failure.request.url !== '');
  const plain = sent.filter((failure) => !failure.replay);
  if (plain.length === 0) return sent[0];
  const length = (failure: T) => commandLength(curlParts(failure.request));
  return plain.reduce((best, failure) => (length(failure) < length(best) ? failure : best));
}

/** Characters of a command made of `parts`, each counted with the space after it (the last one's too). */
export function commandLength(parts: readonly string[]): number {
  return parts.reduce((sum, part) => sum + part.length + 1, 0);
}
