import leven from 'leven';

/**
 * The usage error for a word the default command (`run`) does not take, with what was
 * likely meant: a URL is a base URL given without its flag, a word near a command's name
 * a mistyped command (edit distance at most a third of the word, at least 1: `rn` → run).
 * @param commands the tool's command names.
 */
export function strayWordError(word: string, commands: readonly string[]): string {
  if (/^[a-z][a-z0-9+.-]*:\/\//i.test(word)) return `unexpected argument '${word}': did you mean --base-url ${word}?`;
  const nearest = commands
    .map((name) => ({ name, distance: leven(word.toLowerCase(), name) }))
    .filter(({ distance }) => distance <= Math.max(1, Math.floor(word.length / 3)))
    .sort((a, b) => a.distance - b.distance)[0];
  if (nearest) return `unknown command '${word}': did you mean ${nearest.name}?`;
  return `unexpected argument '${word}': run takes options only (commands: ${commands.join(', ')})`;
}
