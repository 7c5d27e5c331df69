// The request's id (request.id): in every log line of the request, the `X-Request-Id` answer
// header, the `request_id` of a 5xx error body and the activity log. A fresh `req_…` id, unless
// the request came from one of SIGHTLINE_TRUST_PROXY's proxies with an X-Request-Id that is safe
// to repeat (1 to 128 of `A-Z a-z 0-9 . _ : @ / + = -`): then the proxy's id, so one request is
// followed across the proxy's logs and ours. The one thing to know: the header is believed from
// the same peers as X-Forwarded-For and from no one else (without trusted proxies, never), and
// a value that is not safe is never repeated, in part or whole (no log or header injection): the
// request gets a fresh id instead.
import type { IncomingMessage } from 'node:http';
import ipaddr from 'ipaddr.js';
import type { Config } from '../config.ts';

/** What a proxy's id may be: no space, no control character, no quote, no comma (two headers joined). */
const SAFE_REQUEST_ID = /^[A-Za-z0-9._:@/+=-]{1,128}$/;

/** The header's value when it may be the request's id, else undefined. */
export function adoptableRequestId(value: string | string[] | undefined): string | undefined {
  return typeof value === 'string' && SAFE_REQUEST_ID.test(value) ? value : undefined;
}

/** The ranges proxy-addr (Fastify's trustProxy) gives these names, so both agree on who is a proxy. */
const NAMED_RANGES: Record<string, string[]> = {
  loopback: ['127.0.0.1/8', '::1/128'],
  linklocal: ['169.254.0.0/16', 'fe80::/10'],
  uniquelocal: ['10.0.0.0/8', '172.16.0.0/12', '192.168.0.0/16', 'fc00::/7'],
};

type Range = [ipaddr.IPv4 | ipaddr.IPv6, number];

/**
 * Whether an address is one of the entries (addresses, CIDRs, the names above; as config.ts
 * accepts them), matching an IPv4-mapped IPv6 peer (::ffff:10.0.0.1) against IPv4 entries as
 * proxy-addr does.
 */
export function proxyMatcher(entries: readonly string[]): (address: string | undefined) => boolean {
  const ranges: Range[] = entries.flatMap((e) => NAMED_RANGES[e] ?? [e]).map((e) => {
    if (!e.includes('/')) {
      const ip = ipaddr.parse(e);
      return [ip, ip.kind() === 'ipv4' ? 32 : 128];
    }
    const [addr, bits] = e.split('/') as [string, string];
    return [ipaddr.parse(addr), Number(bits)];
  });
  return (address) => {
    if (!address || !ipaddr.isValid(address)) return false;
    const ip = ipaddr.parse(address);
    for (const [range, bits] of ranges) {
      let peer: ipaddr.IPv4 | ipaddr.IPv6 = ip;
      if (peer.kind() !== range.kind()) {
        if (range.kind() === 'ipv4') {
          if (!(peer as ipaddr.IPv6).isIPv4MappedAddress()) continue;
          peer = (peer as ipaddr.IPv6).toIPv4Address();
        } else {
          peer = (peer as ipaddr.IPv4).toIPv4MappedAddress();
        }
      }
      if (peer.match(range, bits)) return true;
    }
    return false;
  };
}

/** Fastify's genReqId: the trusted proxy's X-Request-Id when safe, else `fresh()` (a `req_…` id). */
export function requestIdGenerator(config: Pick<Config, 'SIGHTLINE_TRUST_PROXY'>, fresh: () => string): (req: IncomingMessage) => string {
  if (config.SIGHTLINE_TRUST_PROXY.length === 0) return fresh;
  const fromProxy = proxyMatcher(config.SIGHTLINE_TRUST_PROXY);
  return (req) => {
    const header = req.headers['x-request-id'];
    if (header !== undefined && fromProxy(req.socket?.remoteAddress)) {
      const id = adoptableRequestId(header);
      if (id) return id;
    }
    return fresh();
  };
}
