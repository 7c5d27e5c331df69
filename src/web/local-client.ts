// Whether a request comes from this machine: the owner set-up of an instance with no owner is open
// to such a client without a set-up token (src/console/api/auth.ts). A request is local when its
// socket's peer is a loopback address and nothing says it came through a relay: no Forwarded,
// X-Forwarded-For, X-Real-IP or other relay header, a Host (and Origin) naming a loopback name
// and the very port the connection was accepted on, and HTTP/1.1 (nginx's proxy_pass speaks
// HTTP/1.0 to its upstream unless told otherwise). And never when the operator said the instance
// runs behind a proxy (SIGHTLINE_PUBLIC_URL or SIGHTLINE_TRUST_PROXY set): a proxy on the same
// machine that adds no header (nginx's default proxy_pass, HAProxy, a TCP forwarder) would make
// the whole internet "local", so there the set-up link is always needed.
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
  /** The port this server accepted the connection on (request.socket.localPort), when known. */
  localPort?: number;
  /** The request's HTTP version ("1.1", "1.0"), when known. */
  httpVersion?: string;
}

/** Headers a relay adds, besides X-Forwarded-For: a loopback peer sending one relays someone else. */
const RELAY_HEADERS = ['via', 'x-forwarded-host', 'x-forwarded-proto', 'cf-connecting-ip', 'true-client-ip', 'x-client-ip'];

/** localhost (or a name under .localhost) or a loopback address, as a Host or Origin names it. */
export function isLoopbackName(hostname: string): boolean {
  const name = hostname.toLowerCase().replace(/^\[(.*)\]$/, '$1');
  return name === 'localhost' || name.endsWith('.localhost') || isLoopbackAddress(name);
}

/** The host name and port of a Host header ("127.0.0.1:8080", "[::1]:8080", "localhost" is port 80). */
function parseHost(host: string | undefined): { name: string; port: number } | undefined {
  if (!host) return undefined;
  try {
    const url = new URL(`http://${host}`);
    return { name: url.hostname, port: url.port ? Number(url.port) : 80 };
  } catch {
    return undefined;
  }
}
const hostOf = (host: string | undefined) => parseHost(host)?.name;

/**
 * The decision, on plain facts (unit-tested with addresses; no traffic leaves loopback). Besides
 * the peer, the page must have been asked for by a loopback name (Host, and Origin when sent): a
 * page of another site whose name an attacker rebinds to 127.0.0.1 (DNS rebinding) reaches this
 * server from a loopback peer, but under its own name. The Host must also name the port the
 * connection came in on: a proxy listening elsewhere that passes the client's Host on does not.
 */
export function isLocalClient({ socketAddress, headers, localPort, httpVersion }: ClientFacts): boolean {
  if (!isLoopbackAddress(socketAddress)) return false;
  if (httpVersion !== undefined && httpVersion !== '1.1') return false;
  const host = parseHost(headers.host);
  if (!host || !isLoopbackName(host.name)) return false;
  if (localPort !== undefined && host.port !== localPort) return false;
  const origin = headers.origin;
  if (origin !== undefined && origin !== 'null') {
    const originHost = hostOf(origin.replace(/^[a-z][a-z0-9+.-]*:\/\//i, ''));
    if (!originHost || !isLoopbackName(originHost)) return false;
  }
  // A loopback peer that says it forwards for someone is a proxy, whoever that someone is.
  if (headers.forwarded !== undefined || headers['x-real-ip'] !== undefined || headers['x-forwarded-for'] !== undefined) return false;
  return !RELAY_HEADERS.some((h) => headers[h] !== undefined);
}

/** Whether the operator runs the instance behind a proxy: then no request counts as local. */
export function behindProxy(config: { SIGHTLINE_PUBLIC_URL?: string; SIGHTLINE_TRUST_PROXY: readonly string[] }): boolean {
  return !!config.SIGHTLINE_PUBLIC_URL || config.SIGHTLINE_TRUST_PROXY.length > 0;
}

export function isLocalRequest(request: FastifyRequest, config: Parameters<typeof behindProxy>[0]): boolean {
  if (behindProxy(config)) return false;
  return isLocalClient({ socketAddress: request.socket.remoteAddress, headers: request.headers, localPort: request.socket.localPort, httpVersion: request.raw.httpVersion });
}
