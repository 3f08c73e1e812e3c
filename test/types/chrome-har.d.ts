/** chrome-har ships no types: the one function the recorders call (test/support/recorders.ts). */
declare module 'chrome-har' {
  export function harFromMessages(messages: ReadonlyArray<{ method: string; params: unknown }>, options?: { includeTextFromResponseBody?: boolean }): unknown;
}
