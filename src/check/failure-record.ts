import { withBodyCapped } from '../core/exchange.js';
import type { CheckFailure } from '../core/errors.js';
import type { FailureRecord } from './types.js';

/**
 * A failed judgement as the report holds it: its message, what it expected and found, and
 * the exchange (its response body capped); `checkId` names the check that made the
 * exchange when it is not `checkId` (invariants, captured traffic).
 */
export function failureRecord({ message, exchange, deviation }: CheckFailure, checkId: string): FailureRecord {
  const record: FailureRecord = { message, ...deviation, request: exchange.request };
  if (exchange.checkId !== checkId) record.checkId = exchange.checkId;
  if (exchange.response) record.response = withBodyCapped(exchange).response;
  if (exchange.error) record.error = exchange.error;
  return record;
}
