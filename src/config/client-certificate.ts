import { createSecureContext } from 'node:tls';
import { UsageError } from '../core/errors.js';

/**
 * Checks a client certificate and its key before any request, so that a wrong pair is
 * one line (exit 2) rather than a TLS failure on every request.
 * @throws UsageError when only one of the two is given, when either is not PEM that
 *   OpenSSL reads, or when the key does not belong to the certificate; the message never
 *   quotes the key.
 */
export function assertClientCertificate(certPem: string | undefined, keyPem: string | undefined): void {
  if (certPem === undefined && keyPem === undefined) return;
  if (certPem === undefined || keyPem === undefined) throw new UsageError('--client-cert and --client-key go together: give both, or neither');
  try {
    createSecureContext({ cert: certPem, key: keyPem });
  } catch (error) {
    const reason = (error as { reason?: string }).reason ?? (error as Error).message;
    const mismatch = /mismatch/i.test(reason) ? 'the key does not belong to the certificate' : `OpenSSL cannot use them (${reason})`;
    throw new UsageError(`--client-cert/--client-key: ${mismatch}`);
  }
}
