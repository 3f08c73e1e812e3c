/** The reason given to checks a `--checks` filter left out. */
export const NOT_SELECTED = 'not selected';

/** Why a writing check did not run in a read-only run. */
export const UNTESTED_READ_ONLY = 'untested (profile read-only)';
