/**
 * The proxy's HAR file (src/traffic/har-writer.ts): a whole HAR after every entry, and
 * every exchange offered before close in it.
 */
import { mkdtemp, readFile, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, beforeEach, expect, test } from 'vitest';
import { Redactor } from '../../src/secrets/redactor.js';
import { HarStreamWriter } from '../../src/traffic/har-writer.js';
import { answered } from '../support/exchanges.js';

let dir: string;
beforeEach(async () => {
  dir = await mkdtemp(join(tmpdir(), 'pcs-har-writer-'));
});
afterEach(() => rm(dir, { recursive: true, force: true }));

const statuses = async (path: string): Promise<number[]> =>
  (JSON.parse(await readFile(path, 'utf8')) as { log: { entries: Array<{ response: { status: number } }> } }).log.entries.map((entry) => entry.response.status);

test('close waits for every write offered: three exchanges appended and closed at once are three entries', async () => {
  const path = join(dir, 'proxy.har');
  const writer = await HarStreamWriter.open(path);
  for (const status of [201, 400, 401]) writer.append(answered(status, {}), new Redactor());
  expect(await writer.close()).toBeUndefined();
  expect([await statuses(path), writer.entries, writer.offered]).toEqual([[201, 400, 401], 3, 3]);
});

test('near miss: closed with nothing offered, the file is a whole HAR of no entries', async () => {
  const path = join(dir, 'empty.har');
  const writer = await HarStreamWriter.open(path);
  expect(await writer.close()).toBeUndefined();
  expect([await statuses(path), writer.entries]).toEqual([[], 0]);
});
