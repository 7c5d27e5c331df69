// Which network addresses the page fetcher may connect to (SSRF defence) and the operator's
// allowlist (SIGHTLINE_FETCH_ALLOW) of non-public targets it may reach anyway.
//
// The one thing to know: only public unicast addresses pass. The check must run on the address
// actually connected to (every DNS answer, after the WHATWG URL parser has normalized spellings
// like 127.1 or 0x7f000001), never on the text the user typed.
//
// Classification uses ipaddr.js (MIT, the parser behind Express's proxy-addr): it knows the IANA
// special-purpose registries for both families and parses every IPv6 spelling. node's
// net.BlockList could only tell us "in one of the ranges we typed in", so we would have to
// maintain the registry ourselves and still unwrap embedded IPv4 addresses by hand.
import ipaddr from 'ipaddr.js';

type IP = ipaddr.IPv4 | ipaddr.IPv6;

function parseIp(text: string): IP | null {
  let s = text.trim();
  if (s.startsWith('[') && s.endsWith(']')) s = s.slice(1, -1);
  const zone = s.indexOf('%');
  if (zone !== -1) s = s.slice(0, zone); // fe80::1%eth0: the zone does not change the class
  try {
    return ipaddr.parse(s);
  } catch {
    return null;
  }
}

function v4FromBits(hi: number, lo: number): ipaddr.IPv4 {
  return new ipaddr.IPv4([hi >> 8, hi & 0xff, lo >> 8, lo & 0xff]);
}

function isPublicV4(addr: ipaddr.IPv4): boolean {
  // ipaddr.js names every special-purpose block (0/8, 10/8, 100.64/10, 127/8, 169.254/16,
  // 172.16/12, 192.0.0/24, TEST-NETs, 192.88.99/24, 192.168/16, 198.18/15, 224/4, 240/4,
  // 255.255.255.255, AS112, AMT); everything else is 'unicast'.
  return addr.range() === 'unicast';
}

/** The 2000::/3 global unicast block: IANA has allocated nothing public outside it. */
const GLOBAL_UNICAST_V6 = ipaddr.parseCIDR('2000::/3');

function isPublicV6(addr: ipaddr.IPv6): boolean {
  const p = addr.parts;
  switch (addr.range()) {
    case 'ipv4Mapped': // ::ffff:a.b.c.d, the OS connects to a.b.c.d
    case 'rfc6145': // ::ffff:0:a.b.c.d, IPv4-translated
      return isPublicV4(v4FromBits(p[6]!, p[7]!));
    case 'rfc6052': {
      // 64:ff9b::/96 is the well-known NAT64 prefix: DNS64 networks answer with it for every
      // IPv4-only site, so it is public exactly when the embedded IPv4 address is. The
      // local-use 64:ff9b:1::/48 translates into private networks and is refused.
      const wellKnown = p[2] === 0 && p[3] === 0 && p[4] === 0 && p[5] === 0;
      return wellKnown && isPublicV4(v4FromBits(p[6]!, p[7]!));
    }
    case '6to4': // 2002:AABB:CCDD::/48 tunnels to AA.BB.CC.DD
      return isPublicV4(v4FromBits(p[1]!, p[2]!));
    case 'unicast':
      // Also catches what ipaddr.js leaves unnamed, e.g. the deprecated IPv4-compatible ::a.b.c.d.
      return addr.match(GLOBAL_UNICAST_V6);
    default:
      // loopback, unspecified, linkLocal, uniqueLocal (fc00::/7), multicast, teredo (the
      // client address inside is obfuscated), documentation/benchmarking/reserved, ORCHID...
      return false;
  }
}

/** True when `ip` (an IPv4 or IPv6 literal, brackets and zone allowed) is a public unicast address. */
export function isPublicAddress(ip: string): boolean {
  const addr = parseIp(ip);
  if (!addr) return false;
  return addr.kind() === 'ipv4' ? isPublicV4(addr as ipaddr.IPv4) : isPublicV6(addr as ipaddr.IPv6);
}

/** Same address whatever the spelling; IPv4-mapped IPv6 folded to IPv4 so "::ffff:10.0.0.1" matches "10.0.0.1". */
function canonical(addr: IP): IP {
  if (addr.kind() === 'ipv6' && (addr as ipaddr.IPv6).isIPv4MappedAddress()) {
    return (addr as ipaddr.IPv6).toIPv4Address();
  }
  return addr;
}

export type AllowEntry =
  | { kind: 'host'; host: string; port: number | null }
  | { kind: 'ip'; ip: string; port: number | null }
  | { kind: 'cidr'; cidr: string };

export interface FetchAllowlist {
  readonly entries: readonly AllowEntry[];
  /**
   * May the fetcher connect to `ip` for a URL whose host is `host` and port `port`?
   * `host` is the URL hostname (brackets optional), `port` the effective port (80/443 when the
   * URL names none). Host entries trust whatever that name resolves to: the operator vouches
   * for the name. IP and CIDR entries match the address connected to, whatever the name.
   */
  allows(host: string, port: number, ip: string): boolean;
}

function normalizeHost(host: string): string {
  let h = host.trim().toLowerCase();
  if (h.startsWith('[') && h.endsWith(']')) h = h.slice(1, -1);
  if (h.endsWith('.')) h = h.slice(0, -1);
  return h;
}

function parsePort(text: string, entry: string): number {
  const port = /^\d{1,5}$/.test(text) ? Number(text) : NaN;
  if (!(port >= 1 && port <= 65535)) throw new Error(`SIGHTLINE_FETCH_ALLOW: bad port in "${entry}"`);
  return port;
}

function parseEntry(entry: string): AllowEntry {
  if (entry.includes('/')) {
    const text = entry.startsWith('[') ? entry.replace(/^\[(.*)\](\/\d+)$/, '$1$2') : entry;
    if (!ipaddr.isValidCIDR(text)) throw new Error(`SIGHTLINE_FETCH_ALLOW: bad CIDR "${entry}"`);
    const [addr, bits] = ipaddr.parseCIDR(text);
    return { kind: 'cidr', cidr: `${addr.toString()}/${bits}` };
  }
  let host = entry;
  let port: number | null = null;
  const bracketed = /^\[([^\]]+)\](?::(\d+))?$/.exec(entry);
  if (bracketed) {
    host = bracketed[1]!;
    if (bracketed[2] !== undefined) port = parsePort(bracketed[2], entry);
  } else if (!ipaddr.IPv6.isValid(entry)) {
    const colon = entry.lastIndexOf(':');
    if (colon !== -1) {
      host = entry.slice(0, colon);
      port = parsePort(entry.slice(colon + 1), entry);
    }
  }
  // Only strict spellings for addresses in configuration: "127.1" here is more likely a typo.
  if (ipaddr.IPv4.isValidFourPartDecimal(host) || ipaddr.IPv6.isValid(host)) {
    return { kind: 'ip', ip: canonical(ipaddr.parse(host)).toString(), port };
  }
  const name = normalizeHost(host);
  if (/^(0x[0-9a-f]*|\d+)$/i.test(name.slice(name.lastIndexOf('.') + 1))) {
    // The URL parser reads such a host as an IPv4 address, so this entry could never match.
    throw new Error(`SIGHTLINE_FETCH_ALLOW: write IPv4 addresses as four decimal parts ("${entry}")`);
  }
  if (!/^[a-z0-9_]([a-z0-9_-]*[a-z0-9_])?(\.[a-z0-9_]([a-z0-9_-]*[a-z0-9_])?)*$/.test(name)) {
    throw new Error(`SIGHTLINE_FETCH_ALLOW: bad host "${entry}"`);
  }
  return { kind: 'host', host: name, port };
}

/**
 * Parses SIGHTLINE_FETCH_ALLOW: comma-separated hosts (`intranet.example`), host:port pairs
 * (`127.0.0.1:8080`, `[::1]:8080`, `wiki.local:8443`), IP addresses and CIDRs (`10.0.0.0/8`,
 * `fd00::/8`). Whitespace and empty items are ignored; a malformed item throws, so a typo fails
 * at start rather than silently allowing nothing (or too much).
 */
export function parseFetchAllowlist(spec: string | undefined | null): FetchAllowlist {
  const entries = (spec ?? '')
    .split(',')
    .map((s) => s.trim())
    .filter(Boolean)
    .map(parseEntry);
  return makeAllowlist(entries);
}

function makeAllowlist(entries: AllowEntry[]): FetchAllowlist {
  const cidrs = entries.flatMap((e) => (e.kind === 'cidr' ? [ipaddr.parseCIDR(e.cidr)] : []));
  return {
    entries,
    allows(host: string, port: number, ip: string): boolean {
      if (entries.length === 0) return false;
      const name = normalizeHost(host);
      const parsed = parseIp(ip);
      const addr = parsed ? canonical(parsed) : null;
      const addrText = addr?.toString();
      for (const e of entries) {
        if (e.kind === 'host') {
          if (e.host === name && (e.port === null || e.port === port)) return true;
        } else if (e.kind === 'ip') {
          if (addrText === e.ip && (e.port === null || e.port === port)) return true;
        }
      }
      if (!addr) return false;
      return cidrs.some(([net, bits]) => net.kind() === addr.kind() && addr.match(net, bits));
    },
  };
}

/** Allows nothing beyond public addresses: the default when SIGHTLINE_FETCH_ALLOW is empty. */
export const EMPTY_ALLOWLIST: FetchAllowlist = makeAllowlist([]);

/** The policy the fetcher applies to every address it is about to connect to. */
export function isAddressAllowed(host: string, port: number, ip: string, allow: FetchAllowlist): boolean {
  return isPublicAddress(ip) || allow.allows(host, port, ip);
}
