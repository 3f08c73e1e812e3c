import { createRequire } from 'node:module';
import type { Shescape } from 'shescape';
import { SETTING_LIST, SETTINGS, type SettingName, type SettingValues } from './settings.js';

/** Words sh reads as themselves, left bare so a replay reads as typed. */
const PLAIN = /^[A-Za-z0-9@%+=:,./_-]+$/;

let shell: Shescape | undefined;
/**
 * A word as sh must be given it: shescape's bash quoting is POSIX single quotes, read alike
 * by dash, bash and zsh (test/unit/replay.test.ts). shescape (about 45 ms to load) is loaded on the first
 * word that needs quoting, not when the suite's worker starts: most runs replay nothing.
 */
function quoted(word: string): string {
  if (PLAIN.test(word)) return word;
  shell ??= new (createRequire(import.meta.url)('shescape') as typeof import('shescape')).Shescape({ shell: 'bash' });
  return shell.quote(word);
}

/** Settings every replay states even at their default: a target's default profile may differ, and the seed is the replay. */
const ALWAYS: readonly SettingName[] = ['profile', 'seed'];

/** Words as one sh command line: each left bare when it reads as itself, else quoted. */
export function shellWords(words: readonly string[]): string {
  return words.map(quoted).join(' ');
}

/** How a replay runs the tool when the caller does not say (a library run): what works after `npm install petstore-conformance`. */
export const DEFAULT_COMMAND = 'npx petstore-conformance';

/**
 * The command line that runs again what a run sent and judged, built from the settings
 * table alone: every setting declared `replays` (what is sent or judged: the profile, the
 * seed, `--checks`, `--strict`, budgets, headers, the known failures …) that differs from
 * its default. Secrets never appear: the key is read from its variable (`--api-key-env`
 * when it is not the default), and `--header-env` names variables, not values.
 * @param values the run's settings (RunSettings, or report.json's `settings`).
 * @param baseUrl the target, for an external one; absent: the embedded reference server.
 * @param overrides settings that differ in the replay, e.g. `{ checkFilter: '^one-check$' }`.
 * @param command how the user runs the tool, quoted for sh (cli/invocation.ts): the replay's first words.
 */
export function replayCommand(values: Partial<SettingValues>, baseUrl: string | undefined, overrides: Partial<SettingValues> = {}, command = DEFAULT_COMMAND): string {
  const words = ['run', ...(baseUrl ? ['--base-url', baseUrl] : [])];
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
  return `${command} ${shellWords(words)}`;
}
