/**
 * Hand-made HAR 1.2 captures for the traffic tests: entries as browsers, mitmproxy and
 * this tool write them, each at a chosen time, and the file around them.
 */
import { writeFile } from 'node:fs/promises';
import { join } from 'node:path';

export const BASE = 'https://petstore.example/v1';
export const KEY = 'capture-key-0123456789abcdef';

/** One exchange of a capture. Times in ms from the capture's start; bodies as text unless `content` overrides. */
export interface EntrySpec {
  method?: string;
  path?: string;
  url?: string;
  authorization?: string | null;
  requestBody?: string;
  status: number;
  responseBody?: string;
  responseHeaders?: Record<string, string>;
  /** Overrides the response's `content` (base64, size, text left out). */
  content?: Record<string, unknown>;
  startMs?: number;
  timeMs?: number;
  requestHeaders?: Record<string, string>;
  /** The request body's media type (default application/json); null: no Content-Type. */
  contentType?: string | null;
  /** The request's `bodySize` when it is not the body's length (a body the writer left out). */
  requestBodySize?: number;
  /** The response's HTTP version (default HTTP/1.1). */
  httpVersion?: string;
}

const T0 = Date.parse('2026-11-24T10:00:00.000Z');

/** A HAR 1.2 entry as a browser writes it ("save all as HAR with content"). */
export function entry(spec: EntrySpec): Record<string, unknown> {
  const url = spec.url ?? `${BASE}${spec.path ?? '/categories'}`;
  const authorization = spec.authorization === undefined ? `Bearer ${KEY}` : spec.authorization;
  const requestHeaders = [
    { name: 'Accept', value: 'application/json' },
    ...(authorization === null ? [] : [{ name: 'Authorization', value: authorization }]),
    ...(spec.requestBody !== undefined && spec.contentType !== null ? [{ name: 'Content-Type', value: spec.contentType ?? 'application/json' }] : []),
    ...Object.entries(spec.requestHeaders ?? {}).map(([name, value]) => ({ name, value })),
  ];
  const responseHeaders = Object.entries({ 'Content-Type': 'application/json', ...(spec.status === 401 ? { 'WWW-Authenticate': 'Bearer error="invalid_token"' } : {}), ...spec.responseHeaders }).map(([name, value]) => ({ name, value }));
  const body = spec.responseBody ?? '';
  return {
    startedDateTime: new Date(T0 + (spec.startMs ?? 0)).toISOString(),
    time: spec.timeMs ?? 10,
    request: {
      method: spec.method ?? (spec.requestBody !== undefined ? 'POST' : 'GET'),
      url,
      httpVersion: 'HTTP/1.1',
      cookies: [],
      headers: requestHeaders,
      queryString: [],
      ...(spec.requestBody !== undefined ? { postData: { mimeType: spec.contentType ?? 'application/json', text: spec.requestBody } } : {}),
      headersSize: -1,
      bodySize: spec.requestBodySize ?? (spec.requestBody === undefined ? 0 : Buffer.byteLength(spec.requestBody)),
    },
    response: {
      status: spec.status,
      statusText: '',
      httpVersion: spec.httpVersion ?? 'HTTP/1.1',
      cookies: [],
      headers: responseHeaders,
      content: spec.content ?? { size: Buffer.byteLength(body), mimeType: 'application/json', text: body },
      redirectURL: '',
      headersSize: -1,
      bodySize: Buffer.byteLength(body),
    },
    cache: {},
    timings: { send: 0, wait: spec.timeMs ?? 10, receive: 0 },
  };
}

/** An Error body (section 7). */
export const error = (status: number) => JSON.stringify({ code: 'e', message: 'm', status });

/** Writes a HAR of these entries; returns its path. */
export async function writeHar(dir: string, name: string, entries: readonly Record<string, unknown>[], creator = { name: 'WebInspector', version: '537.36' }): Promise<string> {
  const path = join(dir, name);
  await writeFile(path, JSON.stringify({ log: { version: '1.2', creator, pages: [], entries } }));
  return path;
}

/**
 * Whether a parsed file is valid HAR 1.2, by the har-schema package's JSON Schemas: the
 * first errors, or none.
 */
export async function harSchemaErrors(har: unknown): Promise<unknown[]> {
  const { Ajv } = await import('ajv');
  const { default: draft6 } = await import('ajv/dist/refs/json-schema-draft-06.json', { with: { type: 'json' } });
  const { readdir, readFile } = await import('node:fs/promises');
  const { fileURLToPath } = await import('node:url');
  const ajv = new Ajv({ strict: false, allErrors: true });
  ajv.addMetaSchema(draft6);
  const schemaDir = fileURLToPath(new URL('../../node_modules/har-schema/lib/', import.meta.url));
  for (const name of (await readdir(schemaDir)).filter((n) => n.endsWith('.json'))) ajv.addSchema(JSON.parse(await readFile(join(schemaDir, name), 'utf8')), name);
  const validate = ajv.getSchema('har.json')!;
  return validate(har) ? [] : (validate.errors ?? []).slice(0, 3);
}
