/**
 * Whether a Content-Type field value denotes `application/json` (spec section 4: "All
 * payloads are application/json"). Type and subtype compare case-insensitively and
 * parameters such as `charset=utf-8` are allowed (RFC 9110 §8.3.1).
 */
export function isJsonMediaType(contentType: string | undefined): boolean {
  if (contentType === undefined) return false;
  const essence = contentType.split(';', 1)[0]!.trim().toLowerCase();
  return essence === 'application/json';
}
