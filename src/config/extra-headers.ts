import { UsageError } from '../core/errors.js';
import { assertSendable } from './api-key.js';

/** A header the user adds to every request (`--header`, `--header-env`). */
export interface ExtraHeader {
  /** The field name, lower-case (RFC 9110 §5.1: names are case-insensitive). */
  name: string;
  value: string;
  /** What reports, HAR and curl replays show: the value, or `${VARIABLE}` for one read from the environment. */
  shown: string;
  /** Read from the environment: redacted wherever the tool writes, like the key. */
  secret: boolean;
}

/**
 * Fields the suite sets itself, each with why: a user's value would change what the
 * checks send (the credential, the body's type and length) or what HTTP/1.1 frames.
 */
const RESERVED: Record<string, string> = {
  authorization: 'the checks send the key, and the credentials they test, in Authorization: the key comes from --api-key-env or --api-key-file',
  'proxy-authorization': 'a proxy takes its credentials from the proxy URL (HTTPS_PROXY=http://user:password@host:port)',
  accept: 'the checks ask for application/json',
  'content-type': 'the checks send the content type that goes with each body',
  'content-length': 'the body sets its length',
  'transfer-encoding': 'the body sets its framing',
  host: 'the base URL sets the host',
  connection: 'the client manages its connections',
  'keep-alive': 'the client manages its connections',
  te: 'the client manages its connections',
  upgrade: 'the client speaks HTTP/1.1',
  expect: 'the client sends bodies at once',
};

/**
 * The longest value an extra header may have (bytes): what common servers accept in one
 * field (nginx's and Node's 8 KiB buffers; RFC 9110 §5.4 leaves the limit to servers).
 */
export const MAX_HEADER_VALUE_BYTES = 8 * 1024;

/** The most bytes all extra headers may add to a request, names and values (Node's http server refuses past 16 KiB of headers). */
export const MAX_EXTRA_HEADER_BYTES = 12 * 1024;

/**
 * The extra headers of a run, from `Name: value` items (`headers`) and `Name=VARIABLE`
 * items (`headerEnv`, each value read from `env`).
 * @throws UsageError for a field the suite sets itself, a name given twice, an unset or
 *   empty variable, a value that cannot be sent in a header (never quoting a secret), a
 *   value over {@link MAX_HEADER_VALUE_BYTES} or headers over {@link MAX_EXTRA_HEADER_BYTES} in all.
 */
export function extraHeaders(headers: readonly string[] = [], headerEnv: readonly string[] = [], env: NodeJS.ProcessEnv): ExtraHeader[] {
  const plain = headers.map((item) => {
    const colon = item.indexOf(':');
    const value = item.slice(colon + 1).trim();
    return { name: item.slice(0, colon).toLowerCase(), value, shown: value, secret: false, flag: `--header ${item.slice(0, colon)}` };
  });
  const fromEnv = headerEnv.map((item) => {
    const [name, variable] = item.split('=') as [string, string];
    const value = env[variable]?.trim();
    if (!value) throw new UsageError(`--header-env ${item}: the environment variable ${variable} is not set`);
    assertSendable(value, `the value of ${name}`, `the environment variable ${variable}`);
    return { name: name.toLowerCase(), value, shown: `\${${variable}}`, secret: true, flag: `--header-env ${name}` };
  });
  const seen = new Set<string>();
  let total = 0;
  return [...plain, ...fromEnv].map(({ flag, ...header }) => {
    const reserved = RESERVED[header.name];
    if (reserved) throw new UsageError(`${flag}: the suite sets this header itself (${reserved})`);
    if (seen.has(header.name)) throw new UsageError(`${flag}: the header is given twice (names are case-insensitive)`);
    seen.add(header.name);
    const bytes = Buffer.byteLength(header.value);
    if (bytes > MAX_HEADER_VALUE_BYTES) throw new UsageError(`${flag}: the value is ${bytes} bytes; at most ${MAX_HEADER_VALUE_BYTES} are sent (what common servers accept in one header)`);
    total += Buffer.byteLength(header.name) + bytes + 4;
    if (total > MAX_EXTRA_HEADER_BYTES) throw new UsageError(`${flag}: the extra headers come to ${total} bytes; at most ${MAX_EXTRA_HEADER_BYTES} are sent in all`);
    return header;
  });
}

/** The headers whose values are secret (read from the environment), for the redactor's `addAll`. */
export function secretHeaders(headers: readonly ExtraHeader[] = []): ExtraHeader[] {
  return headers.filter((header) => header.secret);
}
