import { countOf } from '../core/words.js';
import type { TrafficSummary } from './model.js';

/**
 * The judged traffic in words, as every renderer states it: `1,204 exchanges judged of
 * 1,310 entries (106 left alone); bodies not kept: response body 3`, then entries not
 * readable, captures cut short and what a recorder wrote amiss, when there are.
 */
export function trafficWords(traffic: TrafficSummary): string {
  const n = (count: number) => count.toLocaleString('en-US');
  const missing = Object.entries(traffic.missing).map(([what, count]) => `${what} ${n(count)}`);
  const invalid = traffic.invalid ? `; ${n(traffic.invalid.entries)} not readable as ${traffic.invalid.entries === 1 ? 'a HAR entry' : 'HAR entries'}` : '';
  const cut = traffic.truncated?.length ? `; cut short: ${traffic.truncated.map(({ file, entries }) => `${file} after ${countOf(entries, 'entry', 'entries')}`).join(', ')}` : '';
  const repaired = Object.entries(traffic.repaired ?? {}).map(([what, count]) => `${n(count)} × ${what}`);
  return `${countOf(traffic.judged, 'exchange')} judged of ${countOf(traffic.entries, 'entry', 'entries')} (${n(traffic.other)} left alone)${missing.length > 0 ? `; bodies not kept: ${missing.join(', ')}` : ''}${invalid}${cut}${repaired.length > 0 ? `; read past a recorder's slip: ${repaired.join(', ')}` : ''}`;
}
