// Whether a request comes from this machine: the owner set-up of an instance with no owner is open
// to such a client without a set-up token (src/console/api/auth.ts). A request is local when its
// socket's peer is a loopback address and nothing says it was forwarded for someone else: a
// Forwarded or X-Real-IP header, or an X-Forwarded-For that the trusted proxies
// (SIGHTLINE_TRUST_PROXY) do not resolve to a loopback client. A reverse proxy on the same machine
// thus never makes the whole internet "local".
import type { IncomingHttpHeaders } from 'node:http';
import type { FastifyRequest } from 'fastify';
import ipaddr from 'ipaddr.js';

/** 127.0.0.0/8, ::1 and IPv4-mapped ::ffff:127.x; anything else (or unparseable) is not. */
export function isLoopbackAddress(address: string | undefined): boolean {
  if (!address || !ipaddr.isValid(address)) return false;
  return ipaddr.process(address).range() === 'loopback';
}

export interface ClientFacts {
  /** The TCP peer (request.socket.remoteAddress). */
  socketAddress: string | undefined;
  headers: IncomingHttpHeaders;
  /**
   * With SIGHTLINE_TRUST_PROXY set, Fastify's request.ips: the peer, then the X-Forwarded-For
   * addresses walked while each hop is trusted; the last is the client. Undefined without it.
   */
  trustedChain?: string[];
}

/** Headers a relay adds, besides X-Forwarded-For: a loopback peer sending one relays someone else. */
const RELAY_HEADERS = ['via', 'x-forwarded-host', 'x-forwarded-proto', 'cf-connecting-ip', 'true-client-ip', 'x-client-ip'];

/** localhost (or a name under .localhost) or a loopback address, as a Host or Origin names it. */
export function isLoopbackName(hostname: string): boolean {
  const name = hostname.toLowerCase().replace(/^\[(.*)\]$/, '$1');
  return name === 'localhost' || name.endsWith('.localhost') || isLoopbackAddress(name);
}

/** The host name of a Host header ("127.0.0.1:8080", "[::1]:8080", "localhost"). */
function hostOf(host: string | undefined): string | undefined {
  if (!host) return undefined;
  try {
    return new URL(`http://${host}`).hostname;
  } catch {
    return undefined;
  }
}

/**
 * The decision, on plain facts (unit-tested with addresses; no traffic leaves loopback). Besides
 * the peer, the page must have been asked for by a loopback name (Host, and Origin when sent): a
 * page of another site whose name an attacker rebinds to 127.0.0.1 (DNS rebinding) reaches this
 * server from a loopback peer, but under its own name.
 */
export function isLocalClient({ socketAddress, headers, trustedChain }: ClientFacts): boolean {
  if (!isLoopbackAddress(socketAddress)) return false;
  const host = hostOf(headers.host);
  if (!host || !isLoopbackName(host)) return false;
  const origin = headers.origin;
  if (origin !== undefined && origin !== 'null') {
    const originHost = hostOf(origin.replace(/^[a-z][a-z0-9+.-]*:\/\//i, ''));
    if (!originHost || !isLoopbackName(originHost)) return false;
  }
  // Headers Fastify's trust-proxy never reads: a loopback peer sending them is a proxy for someone.
  if (headers.forwarded !== undefined || headers['x-real-ip'] !== undefined) return false;
  if (headers['x-forwarded-for'] === undefined) return !RELAY_HEADERS.some((h) => headers[h] !== undefined);
  // Forwarded: local only when the trusted proxies resolved it, and to a loopback client.
  if (!trustedChain || trustedChain.length < 2) return false;
  return isLoopbackAddress(trustedChain[trustedChain.length - 1]);
}

export function isLocalRequest(request: FastifyRequest): boolean {
  return isLocalClient({ socketAddress: request.socket.remoteAddress, headers: request.headers, trustedChain: request.ips });
}
