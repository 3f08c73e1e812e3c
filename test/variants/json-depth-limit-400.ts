import type { CorrectVariant } from '../support/fault.js';

/** Go's encoding/json refuses nesting past this many levels ("exceeded max depth"). */
export const GO_JSON_MAX_DEPTH = 10_000;

/**
 * A JSON decoder with a nesting limit, as Go's encoding/json has (10,000 levels): a body
 * nested deeper is refused with 400 and an Error body, as any body it cannot decode. The
 * spec leaves limits open (section 8), and a refusal with an Error is an answer.
 */
export default {
  allowedBy: '8 (limits are not shown), 4.2 (400 with an Error body)',
  variation: (base) => ({
    decodeJson(body) {
      let depth = 0;
      let inString = false;
      for (let i = 0; i < body.length; i++) {
        const c = body[i]!;
        if (inString) {
          if (c === 0x5c) i++;
          else if (c === 0x22) inString = false;
        } else if (c === 0x22) inString = true;
        else if ((c === 0x5b || c === 0x7b) && ++depth > GO_JSON_MAX_DEPTH) return { ok: false, message: `exceeded max depth of ${GO_JSON_MAX_DEPTH}` };
        else if (c === 0x5d || c === 0x7d) depth--;
      }
      return base.decodeJson(body);
    },
  }),
} satisfies CorrectVariant;
