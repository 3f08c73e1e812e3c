import { timingSafeEqual } from 'node:crypto';
import type { IncomingHttpHeaders, ServerResponse } from 'node:http';
import { stringify } from 'lossless-json';
import { violations } from '../schema/validators.js';
import type { CategoryStore, NewCategory, StoredCategory } from './store.js';

/** A request as the behaviour sees it: the body already read (capped). */
export interface ApiRequest {
  method: string;
  /** URL path without query, e.g. `/v1/categories`. */
  path: string;
  /** The query's parameters (none defined by the interface: a server ignores them). */
  query: URLSearchParams;
  headers: IncomingHttpHeaders;
  body: Buffer;
  /** True when the body exceeded the server's cap and was cut. */
  bodyTooLarge: boolean;
}

/** A response as data; `write` turns it into bytes. */
export interface Reply {
  status: number;
  headers?: Record<string, string>;
  /** A JSON value, serialized with exact integers (bigint ids allowed). */
  body?: unknown;
  /** Bytes sent verbatim instead of `body`, with whatever Content-Type `headers` give. */
  raw?: string | Buffer;
}

/** Outcome of a parsing or validation step. */
export type Result<T> = { ok: true; value: T } | { ok: false; message: string };

/**
 * The reference server's behaviour as a set of small replaceable functions. Each calls
 * the others through the object itself, so replacing one (as the project's fault and
 * variant tests do, through a {@link Variation}) changes every path that uses it, while
 * the correct code carries no switches.
 */
export interface Behaviour {
  /** Routing and the order of concerns: authentication first (5/R2), then the operation. */
  respond(req: ApiRequest): Promise<Reply>;
  /** Whether the Authorization header carries the valid key under the bearer scheme (5/R1). */
  authorize(header: string | undefined): boolean;
  /** The 401 answer (5/R2, 7). */
  unauthorized(req: ApiRequest): Reply;
  listCategories(req: ApiRequest): Promise<Reply>;
  createCategory(req: ApiRequest): Promise<Reply>;
  /** Parses the request body as JSON (400 when it is not, 4.2). */
  decodeJson(body: Buffer): Result<unknown>;
  /** Checks a decoded body against NewCategory (4.2/R2, 400 row). */
  validateNewCategory(value: unknown): Result<NewCategory>;
  /** The stored category as sent on the wire (section 2, Category). */
  represent(category: StoredCategory): Record<string, unknown>;
  /** An Error reply (section 7): `status` equals the HTTP status. */
  error(status: number, code: string, message: string): Reply;
  /** Serializes a reply: JSON with exact integers, `application/json`. */
  write(res: ServerResponse, reply: Reply): void;
}

/** What a behaviour is built on. */
export interface BehaviourEnv {
  store: CategoryStore;
  apiKey: string;
}

/**
 * A change to the behaviour: receives the unchanged functions (to delegate to) and the
 * environment, returns the functions it replaces.
 */
export type Variation = (base: Readonly<Behaviour>, env: BehaviourEnv) => Partial<Behaviour>;

const BASE_PATH = '/v1';
/** Operations of the service the spec names but does not describe (4.3): present, not specified. */
const PETS = /^\/pets\/[^/]+$/;
const UNSPECIFIED = [PETS, /^\/store\/orders$/];
/** How the reference server signals that GET /pets/{petId} is deprecated (since 2026-01-01) and sunset (on 2027-06-30). */
const DEPRECATED = { deprecation: '@1767225600', sunset: 'Wed, 30 Jun 2027 23:59:59 GMT' };

/** The correct behaviour, with `variations` applied in order. */
export function createBehaviour(env: BehaviourEnv, variations: Variation[] = []): Behaviour {
  const { store, apiKey } = env;
  const expected = Buffer.from(apiKey);
  const b: Behaviour = {
    async respond(req) {
      if (req.path !== BASE_PATH && !req.path.startsWith(`${BASE_PATH}/`)) {
        return b.error(404, 'not_found', `no resource at ${req.path}`);
      }
      // 5: authentication applies to every operation, before anything about the request is judged.
      if (!b.authorize(req.headers.authorization)) return b.unauthorized(req);
      const path = req.path.slice(BASE_PATH.length);
      if (path === '/categories') {
        if (req.method === 'GET') return b.listCategories(req);
        if (req.method === 'POST') return b.createCategory(req);
        const reply = b.error(405, 'method_not_allowed', `${req.method} is not allowed on /categories`);
        return { ...reply, headers: { ...reply.headers, allow: 'GET, POST' } };
      }
      if (UNSPECIFIED.some((pattern) => pattern.test(path))) {
        const reply = b.error(501, 'not_implemented', `${path} is outside the specified categories interface`);
        // 9/R3: GET /pets/{petId} is deprecated and has a sunset date (RFC 9745, RFC 8594).
        return PETS.test(path) ? { ...reply, headers: { ...reply.headers, ...DEPRECATED } } : reply;
      }
      return b.error(404, 'not_found', `no resource at ${req.path}`);
    },

    authorize(header) {
      // RFC 9110 §11.1: the scheme is case-insensitive; RFC 6750 §2.1: "Bearer" 1*SP b64token.
      const match = /^bearer +(\S+)$/i.exec(header ?? '');
      if (!match) return false;
      const token = Buffer.from(match[1]!);
      return token.length === expected.length && timingSafeEqual(token, expected);
    },

    unauthorized(req) {
      const given = req.headers.authorization !== undefined;
      const reply = b.error(401, 'unauthorized', given ? 'the API key is invalid' : 'an API key is required');
      // RFC 9110 §11.6.1 and RFC 6750 §3: a 401 carries a WWW-Authenticate challenge.
      const challenge = given ? 'Bearer realm="petstore", error="invalid_token"' : 'Bearer realm="petstore"';
      return { ...reply, headers: { ...reply.headers, 'www-authenticate': challenge } };
    },

    async listCategories() {
      return { status: 200, body: store.list().map((category) => b.represent(category)) };
    },

    async createCategory(req) {
      if (req.bodyTooLarge) return b.error(413, 'payload_too_large', 'the request body is too large');
      const decoded = b.decodeJson(req.body);
      if (!decoded.ok) return b.error(400, 'invalid_json', decoded.message);
      const fields = b.validateNewCategory(decoded.value);
      if (!fields.ok) return b.error(400, 'invalid_body', fields.message);
      return { status: 201, body: b.represent(store.create(fields.value)) };
    },

    decodeJson(body) {
      const text = body.toString('utf8');
      if (text.trim() === '') return { ok: false, message: 'the request body is missing' };
      try {
        return { ok: true, value: JSON.parse(text) as unknown };
      } catch (error) {
        return { ok: false, message: `the request body is not valid JSON: ${(error as Error).message}` };
      }
    },

    validateNewCategory(value) {
      const problems = violations('NewCategory', value);
      if (problems.length > 0) return { ok: false, message: `invalid NewCategory: ${problems.join('; ')}` };
      const { name, description } = value as NewCategory;
      // Unknown properties, a client-supplied id among them, are ignored (section 2).
      return { ok: true, value: description === undefined ? { name } : { name, description } };
    },

    represent(category) {
      return { ...category };
    },

    error(status, code, message) {
      return { status, body: { code, message, status } };
    },

    write(res, reply) {
      const headers: Record<string, string> = { ...reply.headers };
      let payload: Buffer | undefined;
      if (reply.raw !== undefined) {
        payload = Buffer.from(reply.raw);
      } else if (reply.body !== undefined) {
        payload = Buffer.from(serialized(reply.body));
        headers['content-type'] ??= 'application/json';
      }
      if (payload) headers['content-length'] = String(payload.byteLength);
      res.writeHead(reply.status, headers);
      res.end(payload);
    },
  };
  for (const variation of variations) Object.assign(b, variation(Object.freeze({ ...b }), env));
  return b;
}

/** Thrown by {@link safeIntegers} when a bigint cannot be a JSON number that native JSON writes exactly. */
const UNSAFE = Symbol('unsafe bigint');

/** A JSON.stringify replacer: bigints within ±(2^53 − 1) become numbers; any other bigint throws {@link UNSAFE}. */
function safeIntegers(_key: string, value: unknown): unknown {
  if (typeof value !== 'bigint') return value;
  if (value > BigInt(Number.MAX_SAFE_INTEGER) || value < BigInt(Number.MIN_SAFE_INTEGER)) throw UNSAFE;
  return Number(value);
}

/**
 * A reply body as JSON text with exact integers. Native JSON.stringify writes every value
 * of a body whose ids fit in 2^53 exactly, and is several times faster than lossless-json
 * on a 100,000-item list; a body holding a larger bigint is written by lossless-json.
 */
function serialized(body: unknown): string {
  try {
    return JSON.stringify(body, safeIntegers) ?? 'null';
  } catch (error) {
    if (error !== UNSAFE) throw error;
    return stringify(body) ?? 'null';
  }
}
