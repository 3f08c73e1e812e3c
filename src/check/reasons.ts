/** The reason given to checks a `--checks` filter left out. */
export const NOT_SELECTED = 'not selected';

/** Why a writing check did not run in a read-only run. */
export const UNTESTED_READ_ONLY = 'untested (profile read-only)';

/**
 * Why a check that puts the key in a URL did not run against a target off loopback:
 * servers, gateways and CDNs log URLs (`--allow-key-in-url` runs it).
 */
export const KEY_IN_URL_WITHHELD = "would write the key into the target's access logs; --allow-key-in-url runs it";

/** Reasons a check was left out by a safe default rather than by the target: `--min-must-checks profile` does not ask for them. */
export const SAFE_DEFAULT_SKIPS: readonly string[] = [UNTESTED_READ_ONLY, KEY_IN_URL_WITHHELD];

/** Why a check did not run: the run was interrupted (a signal, the deadline, the caller's abort) before it started. */
export const NOT_RUN_INTERRUPTED = 'not run: the run was interrupted';

/** Why a check did not run: the tool itself failed (said once, on stderr and as the verdict's reason), before or while it sent. */
export const NOT_RUN_TOOL_FAILED = 'not run: the run stopped on a failure of the tool (said on stderr)';

/** Why a check of a judged capture has no outcome: no captured exchange was one it judges. */
export const NOT_IN_TRAFFIC = 'never exercised by the observed traffic';
