/** The reason given to checks a `--checks` filter left out. */
export const NOT_SELECTED = 'not selected';

/** Why a writing check did not run in a read-only run. */
export const UNTESTED_READ_ONLY = 'untested (profile read-only)';

/** Why a check did not run: the run was interrupted (a signal, the deadline, the caller's abort) before it started. */
export const NOT_RUN_INTERRUPTED = 'not run: the run was interrupted';
