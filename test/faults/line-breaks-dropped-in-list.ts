import type { Fault } from '../support/fault.js';

/**
 * Breaks 4.1/R1: creates are stored and echoed exactly, line breaks included, but the list
 * is served from a cache filled by a line-oriented export, which turns every line break
 * into a space. A server may refuse line breaks (a policy); once it accepted one, it may
 * not drop it.
 */
export default {
  breaks: '4.1/R1',
  variation: (base, { store }) => ({
    async listCategories() {
      const flat = (text: unknown) => (typeof text === 'string' ? text.replace(/\r\n|\r|\n/g, ' ') : text);
      return { status: 200, body: store.list().map((category) => { const shown = base.represent(category); return { ...shown, name: flat(shown.name), ...(shown.description !== undefined ? { description: flat(shown.description) } : {}) }; }) };
    },
  }),
  expected: {
    failed: ['create-valid-bodies', 'model-based-sequences'],
  },
} satisfies Fault;
