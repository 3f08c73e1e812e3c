/** Options as {@link given} returns them: no value is `null`. */
export type Given<T> = { [K in keyof T]: Exclude<T[K], null> };

/**
 * The options a caller gave: every key whose value is `undefined` or `null` dropped, so that
 * an option left out behaves the same whether absent, `undefined` or `null` (`reportDir`
 * left out writes nothing, as `null` does; `profile: null` takes the default). Shallow.
 */
export function given<T extends object>(options: T): Given<T> {
  return Object.fromEntries(Object.entries(options).filter(([, value]) => value !== undefined && value !== null)) as Given<T>;
}
