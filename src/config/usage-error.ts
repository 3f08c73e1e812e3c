/**
 * Bad input to the tool (flags, environment, configuration): printed as one line and
 * ending the process with exit code 2, never with a stack trace.
 */
export class UsageError extends Error {
  override readonly name = 'UsageError';
}
