/**
 * The proxy's judging side: each forwarded exchange (proxy.ts) made into a captured one,
 * its secrets registered before anything of it is written, judged (judge.ts), recorded
 * (`--har`) and its findings printed, redacted. It runs in a thread of its own
 * (judge-thread.ts), beside the forwarding, never in front of a client.
 */
import type { RecordedResponse } from '../core/exchange.js';
import type { CheckDefinition } from '../check/types.js';
import type { CheckResult } from '../report/model.js';
import { KEY_PLACEHOLDER, Redactor } from '../secrets/redactor.js';
import { bodyText, headerFields, normalVersion, type CapturedExchange } from './capture.js';
import { credentialName, knownKey, registerCaptureSecrets, type KnownKey } from './credentials.js';
import type { HarStreamWriter, HarWriteFailure } from './har-writer.js';
import { findingPrinter } from './judge-capture.js';
import { TrafficJudge, type TrafficCounts } from './judge.js';
import { pairs, type ForwardedBody, type ForwardedExchange } from './proxy.js';

/** What the judging side needs: the interface, the checks, the key when known, secret header names. */
export interface ProxyJudgeOptions {
  baseUrl: string;
  checks: readonly CheckDefinition[];
  apiKey?: string;
  /** Lower-case names of further secret header fields (`--header-env`'s names). */
  secretHeaders?: readonly string[];
  /** Print no finding (`--quiet`). */
  quiet?: boolean;
  /** Record only (the recording thread: judging.ts): each exchange goes to the HAR, none is judged. */
  recordOnly?: boolean;
}

/** What the proxy's judge found over its session: the report's material, and the secrets to redact it with. */
export interface ProxyJudgement {
  checks: CheckResult[];
  counts: TrafficCounts;
  notices: string[];
  /** Exchanges whose judging threw (a defect of the tool). */
  judgeErrors: number;
  /** Every secret the traffic carried, in the order seen, with its placeholder: the report is redacted with them. */
  secrets: Array<{ value: string; shown: string }>;
  /** Entries the HAR holds, and why recording stopped when it did. */
  har?: { entries: number; failure?: HarWriteFailure };
}

/**
 * Judges the proxy's exchanges one by one, in the order they complete: a TrafficJudge, a
 * Redactor that learns each secret as it is first seen, the HAR recorder and the printer
 * of findings. Never throws on an exchange (see {@link ProxyJudge.take}).
 */
export class ProxyJudge {
  readonly #judge: TrafficJudge;
  readonly #known: KnownKey;
  readonly #secretHeaders: readonly string[];
  /** The secrets the traffic carried so far, each with its placeholder. */
  readonly #secrets = new Map<string, string>();
  readonly redactor = new Redactor();
  readonly #printFinding: ReturnType<typeof findingPrinter>;
  #seq = 0;
  #judgeErrors = 0;
  readonly #judging: boolean;

  /**
   * @param print writes one line (already redacted): findings as they happen.
   * @param har records each exchange, redacted with what is known when it is written.
   */
  constructor(
    options: ProxyJudgeOptions,
    print: (line: string) => void,
    private readonly har?: HarStreamWriter,
  ) {
    this.#judge = new TrafficJudge(options.baseUrl, options.checks);
    this.#judging = !options.recordOnly;
    this.#known = knownKey(options.apiKey, undefined);
    this.#secretHeaders = options.secretHeaders ?? [];
    if (options.apiKey) this.redactor.add(options.apiKey, KEY_PLACEHOLDER);
    this.#printFinding = options.quiet ? () => {} : findingPrinter((line) => print(this.redactor.text(line)));
  }

  /**
   * Judges and records one forwarded exchange. Whatever goes wrong here stays here: counted, never thrown.
   * @returns when its HAR entry is written, with a HAR; else undefined.
   */
  take(forwarded: ForwardedExchange): Promise<void> | undefined {
    try {
      const exchange = this.#captured(forwarded);
      // An exchange the target left unanswered is recorded, never judged: the 504 was the proxy's.
      if (this.#judging && !forwarded.unanswered) for (const finding of this.#judge.judge(exchange)) this.#printFinding(finding);
      return this.har?.append(exchange, this.redactor);
    } catch {
      this.#judgeErrors++;
      return undefined;
    }
  }

  /** The exchange as a captured one, its secrets registered first: a key first seen here is redacted from this exchange on. */
  #captured(forwarded: ForwardedExchange): CapturedExchange {
    const requestHeaders = headerFields(pairs(forwarded.forwardedHeaders));
    const responsePairs = pairs(forwarded.responseHeaders);
    const responseHeaders = headerFields(responsePairs);
    const missing: string[] = [];
    const sent = decoded(forwarded.requestBody, 'request body', requestHeaders['content-encoding'], missing);
    const received = decoded(forwarded.responseBody, 'response body', responseHeaders['content-encoding'], missing);
    const request = { headers: pairs(forwarded.clientHeaders), url: forwarded.url, postData: { mimeType: requestHeaders['content-type'], text: sent?.text } };
    registerCaptureSecrets({ request, response: { headers: responsePairs } }, this.redactor, this.#secretHeaders, this.#secrets);
    const answer = forwarded.unanswered === undefined ? { response: this.#response(forwarded, responseHeaders, received) } : { error: { code: 'TIMEOUT' as const, message: forwarded.unanswered } };
    return {
      seq: ++this.#seq,
      checkId: 'traffic',
      credential: credentialName(requestHeaders.authorization, this.#known),
      request: { method: forwarded.method, url: forwarded.url, headers: requestHeaders, ...(forwarded.requestBody.bytes > 0 && sent ? { body: sent.text } : {}) },
      ...answer,
      startedAt: new Date(forwarded.startMs).toISOString(),
      durationMs: forwarded.endMs - forwarded.startMs,
      connection: 'fresh',
      startMs: forwarded.startMs,
      endMs: forwarded.endMs,
      missing,
      repaired: [],
    };
  }

  /** The target's answer as recorded. */
  #response(forwarded: ForwardedExchange, headers: Record<string, string>, received: ReturnType<typeof bodyText>): RecordedResponse {
    const version = normalVersion(forwarded.peerVersion);
    return { status: forwarded.status, ...(version ? { httpVersion: version } : {}), headers, body: received?.text ?? '', bodyBytes: forwarded.responseBody.bytes, utf8Valid: received?.utf8Valid ?? true };
  }

  /** Everything judged so far, and the secrets seen. Closes the HAR when there is one. */
  async finish(): Promise<ProxyJudgement> {
    const failure = await this.har?.close();
    return {
      checks: this.#judge.results(),
      counts: this.#judge.counts,
      notices: this.#judge.notices(),
      judgeErrors: this.#judgeErrors,
      secrets: [...this.#secrets].map(([value, shown]) => ({ value, shown })),
      ...(this.har ? { har: { entries: this.har.entries, ...(failure ? { failure } : {}) } } : {}),
    };
  }
}

/** A forwarded body decoded (inflated when its Content-Encoding says so); undefined, said in `missing`, when it passed the cap or does not inflate. */
function decoded(body: ForwardedBody, what: string, contentEncoding: string | undefined, missing: string[]): ReturnType<typeof bodyText> {
  if (body.bytes > body.kept.length) {
    missing.push(`${what} (not kept: ${body.bytes} bytes, larger than --max-response-bytes ${body.kept.length})`);
    return undefined;
  }
  return bodyText(Buffer.from(body.kept.buffer, body.kept.byteOffset, body.kept.byteLength), contentEncoding, what, missing);
}
