import type { Exchange } from '../http/exchange.js';

/**
 * The target broke the rule a check enforces. Carries the exchange that shows it,
 * which the report quotes (request, response or transport error).
 */
export class CheckFailure extends Error {
  override readonly name = 'CheckFailure';
  constructor(
    message: string,
    readonly exchange: Exchange,
  ) {
    super(message);
  }
}

/**
 * The check could not be evaluated, for a reason that is not a verdict on its rule
 * (e.g. a precondition made by another check failed). Reported with status `error`.
 */
export class CheckError extends Error {
  override readonly name = 'CheckError';
}
