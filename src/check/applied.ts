import type { Credential } from '../http/credential.js';
import type { Exchange } from '../core/exchange.js';
import type { RequestSpec } from '../http/request.js';
import { exactInteger, parseJson } from '../json/lossless.js';

/**
 * Whether a create that got no response was applied all the same (RFC 9112 §9.3.1: a
 * request that is not idempotent may be sent again only when known not applied). Reads
 * the list with the valid key and looks for a category with exactly the fields sent that
 * the run has not already seen created.
 * @param known ids (decimal) of the categories the run already saw created.
 * @returns `false` when known not applied (a body without a string `name` creates nothing
 *   on a conformant server), `true` when such a category is listed, `undefined` when the
 *   list cannot tell.
 */
export async function wasCreateApplied(
  spec: RequestSpec,
  send: (lookup: RequestSpec) => Promise<Exchange>,
  valid: Credential,
  known: ReadonlySet<string>,
): Promise<boolean | undefined> {
  if (spec.method !== 'POST' || spec.path !== '/categories') return undefined;
  const sent = spec.body && 'json' in spec.body ? (spec.body.json as { name?: unknown; description?: unknown } | null) : undefined;
  if (typeof sent?.name !== 'string') return false;
  const list = await send({ method: 'GET', path: '/categories', credential: valid });
  const parsed = list.response?.status === 200 ? parseJson(list.response.body) : undefined;
  if (!parsed?.ok || !Array.isArray(parsed.json.value)) return undefined;
  const tree = parsed.json.tree as Array<{ id?: unknown } | null>;
  return parsed.json.value.some((item, i) => {
    const { name, description } = (item ?? {}) as { name?: unknown; description?: unknown };
    const id = exactInteger(tree[i]?.id);
    return name === sent.name && description === sent.description && !(id !== undefined && known.has(id.toString()));
  });
}
