import type { Fault } from '../support/fault.js';

/** Breaks 2 ("assigned by the service ... The client never supplies it"): a client-supplied id is kept. */
export default {
  breaks: '2',
  variation: (base, { store }) => ({
    async createCategory(req) {
      const reply = await base.createCategory(req);
      const decoded = base.decodeJson(req.body);
      const supplied = decoded.ok ? (decoded.value as { id?: unknown } | null)?.id : undefined;
      if (reply.status !== 201 || !Number.isSafeInteger(supplied)) return reply;
      const created = store.list().at(-1)!;
      created.id = BigInt(supplied as number);
      return { ...reply, body: base.represent(created) };
    },
  }),
  expected: {
    failed: ['create-ignores-client-id'],
  },
} satisfies Fault;
