import type { Fault } from '../support/fault.js';

/**
 * Breaks 4.2/R1: the handler compares Content-Type with `application/json` as a string
 * and answers 415 (with an Error body) otherwise, so `application/json; charset=utf-8`, as
 * OkHttp, Java's HttpClient and .NET send it, is refused although it names the same media
 * type (RFC 9110 §8.3.1).
 */
export default {
  breaks: '4.2/R1',
  variation: (base) => ({
    async createCategory(req) {
      if (req.headers['content-type'] !== undefined && req.headers['content-type'] !== 'application/json') {
        return base.error(415, 'unsupported_media_type', `unsupported content type ${req.headers['content-type']}`);
      }
      return base.createCategory(req);
    },
  }),
  expected: {
    failed: ['answers-allowed-status', 'client-forms-equivalent', 'create-rejects-invalid-bodies'],
    mayFail: ['create-valid-bodies'],
  },
} satisfies Fault;
