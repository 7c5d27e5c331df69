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

/** The decision, on plain facts (unit-tested with addresses; no traffic leaves loopback). */
export function isLocalClient({ socketAddress, headers, trustedChain }: ClientFacts): boolean {
  if (!isLoopbackAddress(socketAddress)) return false;
  // Headers Fastify's trust-proxy never reads: a loopback peer sending them is a proxy for someone.
  if (headers.forwarded !== undefined || headers['x-real-ip'] !== undefined) return false;
  if (headers['x-forwarded-for'] === undefined) return true;
  // Forwarded: local only when the trusted proxies resolved it, and to a loopback client.
  if (!trustedChain || trustedChain.length < 2) return false;
  return isLoopbackAddress(trustedChain[trustedChain.length - 1]);
}

export function isLocalRequest(request: FastifyRequest): boolean {
  return isLocalClient({ socketAddress: request.socket.remoteAddress, headers: request.headers, trustedChain: request.ips });
}
