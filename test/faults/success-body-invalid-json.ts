import type { Fault } from '../support/fault.js';

/** Breaks 4.1: the list is serialized by hand with a trailing comma, so its body is not JSON. */
export default {
  breaks: '4.1',
  variation: (base) => ({
    write(res, reply) {
      if (reply.status !== 200 || !Array.isArray(reply.body)) return base.write(res, reply);
      const items = reply.body.map((item) => JSON.stringify(item, (_key, value) => (typeof value === 'bigint' ? Number(value) : value)));
      base.write(res, { status: 200, headers: { 'content-type': 'application/json' }, raw: `[${items.map((item) => `${item},`).join('')}]` });
    },
  }),
  expected: {
    broken: ['list'],
    failed: [],
  },
} satisfies Fault;
