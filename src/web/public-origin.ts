// What the service knows of how the world reaches it: SIGHTLINE_PUBLIC_URL (the console's public
// origin) and SIGHTLINE_TRUST_PROXY (the reverse proxies whose X-Forwarded-* headers are believed,
// Fastify's trustProxy, so request.ip, .protocol and .host are the client's). The one thing to
// know: cookies are Secure, with the `__Host-` prefix, and HSTS is sent whenever the public origin
// is https, whatever the proxy says of one request; without a public origin, a cookie is Secure
// only on a request that arrived over https (directly, or as a trusted proxy says).
import type { FastifyInstance, FastifyRequest } from 'fastify';
import type { Config } from '../config.ts';

export interface CookiePolicy {
  /** Every cookie is Secure (the public origin is https). */
  secure: boolean;
  /** `__Host-` when secure: the browser then refuses the cookie from any other host or path. */
  prefix: '' | '__Host-';
}

declare module 'fastify' {
  interface FastifyInstance {
    cookiePolicy: CookiePolicy;
  }
}

/** One year, the HSTS preload list's minimum; no includeSubDomains (other hosts are not ours to decide). */
export const HSTS = 'max-age=31536000';

const PLAIN: CookiePolicy = { secure: false, prefix: '' };

export function cookiePolicyOf(request: FastifyRequest): CookiePolicy {
  return request.server.cookiePolicy ?? PLAIN;
}

/** Fastify's trustProxy option: the configured proxies, or false (believe no forwarded header). */
export function trustProxyOption(config: Config): string[] | false {
  return config.SIGHTLINE_TRUST_PROXY.length > 0 ? config.SIGHTLINE_TRUST_PROXY : false;
}

export function registerPublicOrigin(app: FastifyInstance, config: Config) {
  const https = config.SIGHTLINE_PUBLIC_URL?.startsWith('https:') ?? false;
  app.decorate('cookiePolicy', https ? { secure: true, prefix: '__Host-' } : PLAIN);
  if (https) {
    app.addHook('onRequest', (_request, reply, done) => {
      reply.header('strict-transport-security', HSTS);
      done();
    });
  }
}
