import { createRequire } from 'node:module';
import type { Shescape } from 'shescape';
import { SETTING_LIST, SETTINGS, type SettingName, type SettingValues } from './settings.js';

/** Words bash reads as themselves, left bare so a replay reads as typed. */
const PLAIN = /^[A-Za-z0-9@%+=:,./_-]+$/;

let shell: Shescape | undefined;
/**
 * A word as bash must be given it. shescape (about 45 ms to load) is loaded on the first
 * word that needs quoting, not when the suite's worker starts: most runs replay nothing.
 */
function quoted(word: string): string {
  if (PLAIN.test(word)) return word;
  shell ??= new (createRequire(import.meta.url)('shescape') as typeof import('shescape')).Shescape({ shell: 'bash' });
  return shell.quote(word);
}

/** Settings every replay states even at their default: a target's default profile may differ, and the seed is the replay. */
const ALWAYS: readonly SettingName[] = ['profile', 'seed'];

/**
 * The command line that runs again what a run sent and judged, built from the settings
 * table alone: every setting declared `replays` (what is sent or judged: the profile, the
 * seed, `--checks`, `--strict`, budgets, headers, the known failures …) that differs from
 * its default. Secrets never appear: the key is read from its variable (`--api-key-env`
 * when it is not the default), and `--header-env` names variables, not values.
 * @param values the run's settings (RunSettings, or report.json's `settings`).
 * @param baseUrl the target, for an external one; absent: the embedded reference server.
 * @param overrides settings that differ in the replay, e.g. `{ checkFilter: '^one-check$' }`.
 */
export function replayCommand(values: Partial<SettingValues>, baseUrl: string | undefined, overrides: Partial<SettingValues> = {}): string {
  const words = ['petstore-conformance', 'run', ...(baseUrl ? ['--base-url', baseUrl] : [])];
  for (const [name, setting] of SETTING_LIST) {
    if (!setting.replays || !setting.flag) continue;
    const value = (name in overrides ? overrides[name] : values[name]) as unknown;
    if (value === undefined || value === null || value === false) continue;
    const fallback = (SETTINGS[name] as { default?: unknown }).default;
    if (!ALWAYS.includes(name) && JSON.stringify(value) === JSON.stringify(fallback)) continue;
    const flag = setting.flag.split(' ')[0]!;
    if (value === true) words.push(flag);
    else if (Array.isArray(value)) words.push(...(setting.type === 'list' ? [flag, value.join(',')] : value.flatMap((item) => [flag, String(item)])));
    else words.push(flag, String(value));
  }
  return words.map(quoted).join(' ');
}
