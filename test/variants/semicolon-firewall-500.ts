import type { CorrectVariant } from '../support/fault.js';

/**
 * Behind a request firewall that rejects a `;` in the path with an HTML 500, as Spring
 * Security's StrictHttpFirewall did by default (its RequestRejectedException reached the
 * container as a server error). `/v1/categories;x=1` is another spelling of the path,
 * outside the interface: the interface's operations are untouched, and only
 * path-spellings-no-server-error (should) notices the 500.
 */
export default {
  allowedBy: '5 (another spelling of a path is outside the interface)',
  variation: (base) => ({
    async respond(req) {
      if (req.path.includes(';')) return { status: 500, headers: { 'content-type': 'text/html' }, raw: '<h1>Whitelabel Error Page</h1><p>RequestRejectedException: the URL contained a potentially malicious String ";"</p>' };
      return base.respond(req);
    },
  }),
  expectedNotPassed: ['path-spellings-no-server-error'],
} satisfies CorrectVariant;
