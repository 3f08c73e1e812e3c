/**
 * The proxy's judging thread (started by judging.ts): a ProxyJudge fed with the forwarded
 * exchanges, one message each, in order. It answers each with `taken` (the bytes it held,
 * so the forwarding side knows the backlog; a recorder, once the entry is in the file) and
 * prints by message. Past the deadline the session sets on stop, what is still queued is
 * counted, not judged.
 */
import { parentPort, workerData } from 'node:worker_threads';
import { collectEvery } from '../core/collect-garbage.js';
import { HarStreamWriter } from './har-writer.js';
import { ProxyJudge } from './proxy-judge.js';
import { COLLECT_EVERY_BYTES, type JudgeThreadData, type FromJudgeThread, type ToJudgeThread } from './judging.js';

const data = workerData as JudgeThreadData;
const port = parentPort!;
const post = (message: FromJudgeThread) => port.postMessage(message);
/** When judging ends, in ms since the epoch (0: not yet), written by the session on stop. */
const deadline = new Float64Array(data.deadline);

const taken = collectEvery(COLLECT_EVERY_BYTES);

let har: HarStreamWriter | undefined;
try {
  har = data.har === undefined ? undefined : await HarStreamWriter.open(data.har, (failure) => post({ type: 'har-failed', failure }));
} catch (error) {
  post({ type: 'failed', message: (error as Error).message });
}
if (data.har === undefined || har) {
  const judge = new ProxyJudge(data.options, (line) => post({ type: 'print', line }), har);
  let notJudged = 0;
  port.on('message', (message: ToJudgeThread) => {
    if (message.type === 'exchange') {
      const late = deadline[0]! > 0 && Date.now() > deadline[0]!;
      const bytes = message.exchange.requestBody.kept.byteLength + message.exchange.responseBody.kept.byteLength;
      const written = late ? void notJudged++ : judge.take(message.exchange);
      taken(bytes);
      // The recorder's backlog ends where the file's does: an exchange is taken once its entry is written.
      if (written) void written.then(() => post({ type: 'taken', bytes }));
      else post({ type: 'taken', bytes });
    } else {
      void judge.finish().then((judgement) => post({ type: 'finished', judgement: { ...judgement, notJudged } }));
    }
  });
  post({ type: 'ready' });
}
