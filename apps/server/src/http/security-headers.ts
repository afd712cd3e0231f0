import fastifyHelmet from '@fastify/helmet';
import type { FastifyInstance } from 'fastify';

/**
 * The SPA's Content-Security-Policy. Vite emits only external module scripts, so scripts need no 'unsafe-inline' and
 * no nonce; styles come from the bundled CSS (sonner's inline <style> is replaced by its CSS file, see
 * apps/web/vite.config.ts). The attachment preview popup is an about:blank window that inherits this policy: it
 * shows images as data: URLs and PDFs in data: frames, hence data: in img-src and frame-src.
 */
export const CONTENT_SECURITY_POLICY = {
  'default-src': ["'self'"],
  'script-src': ["'self'"],
  'script-src-attr': ["'none'"],
  'style-src': ["'self'"],
  'img-src': ["'self'", 'data:'],
  'font-src': ["'self'"],
  'connect-src': ["'self'"],
  'frame-src': ['data:'],
  'object-src': ["'none'"],
  'base-uri': ["'none'"],
  'form-action': ["'self'"],
  'frame-ancestors': ["'none'"],
} as const;

/**
 * Security headers on every response (Helmet), and `Cache-Control: no-store` on every API answer that does not
 * choose its own: they carry personal data (invoices, mail addresses, tokens) that no shared or disk cache may keep.
 * Routes that serve files set their own Content-Type, Content-Disposition and CSP (file-headers.ts), which win.
 */
export async function registerSecurityHeaders(app: FastifyInstance, apiPrefix: string): Promise<void> {
  await app.register(fastifyHelmet, {
    contentSecurityPolicy: { useDefaults: false, directives: CONTENT_SECURITY_POLICY },
    // The attachment preview and the Drive button open windows of their own and keep a handle on them.
    crossOriginOpenerPolicy: { policy: 'same-origin-allow-popups' },
    crossOriginResourcePolicy: { policy: 'same-origin' },
    referrerPolicy: { policy: 'no-referrer' },
    xFrameOptions: { action: 'deny' },
    // Browsers honour it over HTTPS only (behind the TLS proxy); not for subdomains, which are the operator's.
    strictTransportSecurity: { maxAge: 15_552_000, includeSubDomains: false },
  });
  app.addHook('onSend', async (request, reply) => {
    if (request.url.startsWith(`${apiPrefix}/`) && !reply.hasHeader('cache-control')) {
      reply.header('cache-control', 'no-store');
    }
  });
}
