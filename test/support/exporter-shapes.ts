/**
 * Captures in the shapes of exporters that cannot run here, each made from a capture a real
 * recorder made here (Playwright's, test/fixtures/captures) by changing only what that
 * exporter writes differently. The shapes follow the real exports HTTPolice keeps in its
 * test/har_data (vfaronov/httpolice: xhr_chrome.har, xhr2_edge.har,
 * httpbin_fiddler+ie11.har, firefox_post_form.har, insomnia_1.har) and mitmproxy's
 * `savehar` addon (mitmproxy/addons/savehar.py, mitmproxy 10 and later). Charles and
 * Postman publish no export to follow: their HARs are judged as plain HAR 1.2.
 */
import { gzipSync } from 'node:zlib';

/** A HAR entry as JSON: only what the shapes touch is typed. */
interface Entry {
  startedDateTime: string;
  request: { method: string; url: string; headers: Array<{ name: string; value: string }>; postData?: { mimeType?: string; text?: string; params?: unknown[] }; bodySize?: number; headersSize?: number; httpVersion?: string };
  response: { httpVersion?: string; headers: Array<{ name: string; value: string }>; content: { size?: number; text?: string; mimeType?: string; encoding?: string; compression?: number }; bodySize?: number };
  [field: string]: unknown;
}

/** A HAR document as JSON. */
export interface Har {
  log: { creator: { name: string; version?: string }; entries: Entry[]; [field: string]: unknown };
}

/** One exporter's shape: its name, the export it follows, and the change from a Playwright capture. */
export interface ExporterShape {
  name: string;
  follows: string;
  shape(har: Har): Har;
}

const each = (har: Har, creator: Har['log']['creator'], change: (entry: Entry) => Entry): Har => ({ log: { ...har.log, creator, entries: har.log.entries.map((entry) => change(structuredClone(entry))) } });
const header = (headers: Entry['request']['headers'], name: string) => headers.find((field) => field.name.toLowerCase() === name)?.value;

export const EXPORTER_SHAPES: readonly ExporterShape[] = [
  {
    name: 'chrome-devtools',
    follows: "Chrome DevTools' Save all as HAR with content (xhr_chrome.har): WebInspector 537.36, the decoded size, compression and _transferSize",
    shape: (har) =>
      each(har, { name: 'WebInspector', version: '537.36' }, (entry) => {
        delete entry.request.postData?.params;
        const size = Buffer.byteLength(entry.response.content.text ?? '');
        entry.response.content = { ...entry.response.content, size, compression: size - (entry.response.bodySize ?? size) };
        return entry;
      }),
  },
  {
    name: 'edge-f12',
    follows: "Edge's F12 Developer Tools (xhr2_edge.har): request bodies left out, bodySize kept",
    shape: (har) =>
      each(har, { name: 'F12 Developer Tools', version: '' }, (entry) => {
        delete entry.request.postData;
        return entry;
      }),
  },
  {
    name: 'fiddler',
    follows: 'Fiddler with IE11 (httpbin_fiddler+ie11.har): times to the 100 ns with a zone offset, an empty postData on every request, no creator',
    shape: (har) =>
      each(har, { name: 'Fiddler', version: '' }, (entry) => {
        const at = new Date(entry.startedDateTime);
        const local = new Date(at.getTime() + 3 * 3600_000).toISOString().replace('Z', '');
        entry.startedDateTime = `${local}0836+03:00`;
        entry.request.postData ??= { text: '', mimeType: '' };
        entry.connection = 'ClientPort:49797;EgressPort:49798';
        return entry;
      }),
  },
  {
    name: 'firefox',
    follows: "Firefox's Save all as HAR (firefox_post_form.har): a compressed answer's decoded bytes as base64, under its Content-Encoding, and its JSON viewer's media type",
    shape: (har) =>
      each(har, { name: 'Firefox', version: '128.0' }, (entry) => {
        const content = entry.response.content;
        if (content.text !== undefined && header(entry.response.headers, 'content-encoding') !== undefined) {
          entry.response.content = { ...content, encoding: 'base64', text: Buffer.from(content.text).toString('base64'), mimeType: /json/.test(content.mimeType ?? '') ? 'application/vnd.mozilla.json.view' : content.mimeType };
        }
        return entry;
      }),
  },
  {
    name: 'insomnia',
    follows: "Insomnia's HAR export (insomnia_1.har): the body's media type in postData alone, sizes -1",
    shape: (har) =>
      each(har, { name: 'Insomnia REST Client', version: 'insomnia.desktop.app:v5.14.9' }, (entry) => {
        entry.request.headers = entry.request.headers.filter((field) => field.name.toLowerCase() !== 'content-type');
        entry.request.bodySize = -1;
        entry.request.headersSize = -1;
        entry.response.bodySize = -1;
        return entry;
      }),
  },
  {
    name: 'mitmproxy-savehar',
    follows: "mitmproxy 10's savehar (mitmproxy/addons/savehar.py): the compressed size beside the decoded text, null timings, creator mitmproxy exporthar",
    shape: (har) =>
      each(har, { name: 'mitmproxy exporthar', version: '0.1' }, (entry) => {
        const text = entry.response.content.text ?? '';
        const compressed = header(entry.response.headers, 'content-encoding') === 'gzip' ? gzipSync(text).byteLength : Buffer.byteLength(text);
        entry.response.content = { ...entry.response.content, size: compressed, compression: Buffer.byteLength(text) - compressed };
        entry.timings = { connect: null, ssl: null, send: 0, receive: 0, wait: 1 };
        return entry;
      }),
  },
];
