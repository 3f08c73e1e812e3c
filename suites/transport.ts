/**
 * Conformance class: HTTP transport features the interface does not rely on
 * (src/http/request-variations.ts, kind `transport`). A body framed with
 * `Transfer-Encoding: chunked` is HTTP/1.1 (RFC 9112 §7.1), not the interface: how a server
 * answers it is judged at should, and a consistent refusal with 411 is a transport
 * policy. What holds for any request stays must: a chunked body the server accepts is
 * created exactly as sent and listed (4.2/R1), and none is answered with a 5xx (the
 * section-4 invariant). A server that answers in HTTP/1.0 is not asked.
 * Judgements: src/judgements/transport.ts.
 */
import { check } from '../src/check/define.js';
import type { CheckContext } from '../src/check/context.js';
import { CheckFailure } from '../src/core/errors.js';
import type { Exchange } from '../src/core/exchange.js';
import { framingWords } from '../src/http/chunks.js';
import { CHUNKED_FORM } from '../src/http/client-form.js';
import { createdListed } from '../src/judgements/create.js';
import { chunkedBodyAnswered, chunkedCreatedExactly, chunkedNotAsked } from '../src/judgements/transport.js';

/**
 * Runs a judgement of a chunked create; its failure names how the body was cut (`the body
 * was sent in 3 chunks (12, 16 and 28 bytes), split inside U+00E9 (after byte 1 of 2)`), so
 * a developer sees the split that one-piece replays (curl) do not make.
 */
async function framed<T>(exchange: Exchange, judge: () => T | Promise<T>): Promise<T> {
  try {
    return await judge();
  } catch (error) {
    const { chunks, body } = exchange.request;
    if (!(error instanceof CheckFailure) || !chunks || body === undefined) throw error;
    throw new CheckFailure(`${error.message}; the body was ${framingWords(body, chunks)}`, error.exchange, error.deviation);
  }
}

/** Registers the checks of this class for the target under registration (see check/run-state.ts). */
export default function register(): void {
  /**
   * Sends one valid create framed chunked, unless the target answers in HTTP/1.0 (then
   * `skip`s): its body split where a streaming client's writes may fall, inside a
   * multi-byte character (http/client.ts).
   */
  async function sendChunked(t: CheckContext, skip: (reason: string) => never) {
    // The version of the target's answers, from the run's latest; a list of its own when none came yet.
    const version = t.run.peerVersion ?? (await t.list()).response?.httpVersion ?? 'HTTP/1.1';
    const notAsked = chunkedNotAsked(version);
    if (notAsked) return skip(notAsked);
    const fields = { name: `${t.name()} Café 🐈`, description: 'streamed — ünïcödé' };
    return { fields, exchange: await t.create({ json: fields }, t.run.valid, CHUNKED_FORM) };
  }

  check(
    {
      id: 'chunked-body-answered',
      title: 'a valid body framed with Transfer-Encoding: chunked is created, or refused with 411 Length Required; never read as missing (400) nor left unanswered',
      clause: '4.2',
      level: 'should',
      reference: 'RFC 9112 §7.1',
      requirements: ['H-CHUNKED-REQUEST'],
      writes: true,
    },
    async (t, skip) => {
      const { exchange } = await sendChunked(t, skip);
      const { policy } = await framed(exchange, () => chunkedBodyAnswered(exchange));
      if (policy) t.observe(policy);
    },
  );

  check(
    {
      id: 'chunked-body-created-exactly',
      title: 'a valid body framed chunked that the server accepts is created exactly as sent and then listed',
      clause: '4.2/R1',
      level: 'must',
      requirements: ['R-4.2-R1', 'R-4.1-R1'],
      needs: ['create', 'list'],
      writes: true,
    },
    async (t, skip) => {
      const { fields, exchange } = await sendChunked(t, skip);
      // Refused: chunked-body-answered's (should); a 5xx: no-server-error's; unanswered: nothing to hold to 4.2/R1.
      const accepted = await framed(exchange, () => chunkedCreatedExactly(exchange, fields, t.checkId));
      if (accepted === 'unanswered') return skip(`the chunked body got no answer (${exchange.error?.code}): chunked-body-answered judges that`);
      if (accepted !== 'refused') {
        const list = await t.list();
        await framed(exchange, () => createdListed(list, [accepted]));
      }
    },
    { serialRequests: 3 },
  );
}
