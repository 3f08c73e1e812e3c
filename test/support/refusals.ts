import type { NewCategory } from '../../src/reference/store.js';
import type { Variation } from '../../src/reference/behaviour.js';

/**
 * A validator that refuses, with 400 and an Error body, the valid creates `refuses` names
 * (a message), after the NewCategory schema: a policy or a length limit of section 8, for
 * correct variants. The first rule that refuses wins.
 */
export function refusing(...rules: Array<(fields: NewCategory) => string | undefined>): Variation {
  return (base) => ({
    validateNewCategory(value) {
      const result = base.validateNewCategory(value);
      if (!result.ok) return result;
      for (const rule of rules) {
        const message = rule(result.value);
        if (message !== undefined) return { ok: false, message };
      }
      return result;
    },
  });
}

/** Refuses names matching `pattern`: `message` when one does. */
export const namesMatching = (pattern: RegExp, message: string) => (fields: NewCategory) => (pattern.test(fields.name) ? message : undefined);

/** Refuses a field longer than `max` characters (code points). */
export const longerThan = (field: 'name' | 'description', max: number) => (fields: NewCategory) =>
  fields[field] !== undefined && [...fields[field]!].length > max ? `${field} is longer than ${max} characters` : undefined;

/** nginx's HTML 413 page, as its `client_max_body_size` refuses a body before the service sees it. */
const NGINX_413 = '<html><head><title>413 Request Entity Too Large</title></head><body><center><h1>413 Request Entity Too Large</h1></center><hr><center>nginx</center></body></html>';

/**
 * A reverse proxy in front of the service refusing bodies over `limitBytes` with nginx's
 * own HTML 413 page, before the request reaches the service, so before the key is looked at.
 */
export function nginxBodyLimit(limitBytes: number): Variation {
  return (base) => ({
    async respond(req) {
      if (req.body.byteLength > limitBytes || req.bodyTooLarge) return { status: 413, headers: { 'content-type': 'text/html' }, raw: NGINX_413 };
      return base.respond(req);
    },
  });
}
