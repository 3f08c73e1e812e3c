import type { CorrectVariant } from '../support/fault.js';
import { nginxBodyLimit } from '../support/refusals.js';

/**
 * A reverse proxy at nginx's defaults (`client_max_body_size 1m`: 1,048,576 bytes) in
 * front of the service: a larger body is refused with nginx's own HTML 413 page before the
 * key is looked at. The largest body the suite sends is 1 MiB (http/request-variations.ts):
 * a larger one is outside the interface (section 8 leaves size limits open), so neither the
 * 401 of 4.2/R3 nor the Error shape of section 7 is asked of its answer. A limit below it
 * is a fault (test/faults/body-limit-before-auth.ts).
 */
export default {
  allowedBy: '8',
  variation: nginxBodyLimit(1024 * 1024),
} satisfies CorrectVariant;
