/**
 * How long the proxy's target has to send an answer's head by default (ms): a client is
 * never held forever; past it, the client gets the proxy's 504 (RFC 9110 §15.6.5). A module
 * of its own, so the CLI reads it without loading the proxy.
 */
export const ANSWER_DEADLINE_MS = 30_000;
