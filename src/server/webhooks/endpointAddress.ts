/**
 * Where a webhook may be posted (SSRF): an endpoint's URL is checked when it is registered and
 * every address its host resolves to is checked again when it is posted to, on the connection
 * itself (the request connects to the address checked, so a name that resolves elsewhere
 * afterwards, DNS rebinding, gains nothing).
 *
 * Production: `https://` only, to public addresses only: loopback, private (RFC 1918, unique
 * local), link-local (cloud metadata at 169.254.169.254), carrier-grade NAT, multicast, reserved
 * and documentation ranges are refused. Development and tests (NODE_ENV not production) also
 * allow loopback (`localhost`, 127.0.0.0/8, ::1), by `http://` or `https://`, so a receiver on
 * this machine can be tried; every other private address is refused there too.
 */
import dns from 'node:dns';
import net from 'node:net';

/** Addresses never posted to (loopback is judged on its own: allowed outside production). */
const NOT_PUBLIC = new net.BlockList();
for (const [network, prefix] of [
  ['0.0.0.0', 8],
  ['10.0.0.0', 8],
  ['100.64.0.0', 10],
  ['169.254.0.0', 16],
  ['172.16.0.0', 12],
  ['192.0.0.0', 24],
  ['192.0.2.0', 24],
  ['192.88.99.0', 24],
  ['192.168.0.0', 16],
  ['198.18.0.0', 15],
  ['198.51.100.0', 24],
  ['203.0.113.0', 24],
  ['224.0.0.0', 4],
  ['240.0.0.0', 4],
] as const) {
  NOT_PUBLIC.addSubnet(network, prefix, 'ipv4');
}
for (const [network, prefix] of [
  ['::', 128],
  ['64:ff9b::', 96],
  ['100::', 64],
  ['2001::', 23],
  ['2001:db8::', 32],
  ['fc00::', 7],
  ['fe80::', 10],
  ['ff00::', 8],
] as const) {
  NOT_PUBLIC.addSubnet(network, prefix, 'ipv6');
}
const LOOPBACK = new net.BlockList();
LOOPBACK.addSubnet('127.0.0.0', 8, 'ipv4');
LOOPBACK.addAddress('::1', 'ipv6');

/** An IPv4 address written as IPv6 (`::ffff:10.0.0.1`) is judged as the IPv4 address. */
function unmapped(address: string): { address: string; family: 'ipv4' | 'ipv6' } {
  const mapped = /^::ffff:(\d+\.\d+\.\d+\.\d+)$/i.exec(address);
  if (mapped) return { address: mapped[1]!, family: 'ipv4' };
  return { address, family: net.isIPv6(address) ? 'ipv6' : 'ipv4' };
}

/** Why `address` may not be posted to, or null when it may. */
export function addressRefusal(address: string, production: boolean): string | null {
  if (isLoopback(address)) {
    return production ? `loopback address ${address} refused in production` : null;
  }
  const { address: plain, family } = unmapped(address);
  if (NOT_PUBLIC.check(plain, family)) return `private or reserved address ${address} refused`;
  return null;
}

/** The host of a URL without IPv6 brackets. */
const bareHost = (url: URL) => url.hostname.replace(/^\[(.*)\]$/, '$1');

/** Whether `address` is a loopback address (127.0.0.0/8, ::1, or IPv4 loopback as IPv6). */
function isLoopback(address: string): boolean {
  const { address: plain, family } = unmapped(address);
  return LOOPBACK.check(plain, family);
}

/** Why `raw` may not be an endpoint, or null when it may (the address is checked again later). */
export function endpointUrlRefusal(raw: string, production: boolean): string | null {
  let url: URL;
  try {
    url = new URL(raw);
  } catch {
    return 'The URL is not valid.';
  }
  if (url.username || url.password) return 'The URL may not carry a user name or password.';
  const host = bareHost(url);
  const literal = net.isIP(host) !== 0;
  const loopback = literal ? isLoopback(host) : host === 'localhost' || host.endsWith('.localhost');
  if (production) {
    if (url.protocol !== 'https:') return 'The URL must start with https://.';
    if (loopback) return 'Loopback addresses are refused in production.';
  } else if (!(url.protocol === 'https:' || (url.protocol === 'http:' && loopback))) {
    return 'The URL must start with https:// (http:// only to loopback, in development and tests).';
  }
  if (literal && addressRefusal(host, production)) {
    return 'The URL names a private or reserved address.';
  }
  return null;
}

/** An error of a request refused before it connected: the address it would have reached. */
export class RefusedAddressError extends Error {
  override name = 'RefusedAddressError';
}

/**
 * A `lookup` for `http.request` that resolves as usual and refuses the connection when any
 * address of the name is not allowed. An IP literal host never reaches a lookup: the caller
 * checks it with `addressRefusal` first.
 */
export function guardedLookup(production: boolean): net.LookupFunction {
  return (hostname, options, callback) => {
    dns.lookup(hostname, { ...options, all: true }, (error, addresses) => {
      if (error) return callback(error, '', 4);
      const list = addresses as dns.LookupAddress[];
      const refused = list.map((entry) => addressRefusal(entry.address, production)).find(Boolean);
      if (refused || list.length === 0) {
        return callback(new RefusedAddressError(refused ?? `${hostname} has no address`), '', 4);
      }
      if (options.all) return (callback as unknown as AllCallback)(null, list);
      return callback(null, list[0]!.address, list[0]!.family);
    });
  };
}

type AllCallback = (error: Error | null, addresses: dns.LookupAddress[]) => void;

/** The host of `url` when it is an IP literal that may not be posted to: why; else null. */
export function literalHostRefusal(url: URL, production: boolean): string | null {
  const host = bareHost(url);
  return net.isIP(host) !== 0 ? addressRefusal(host, production) : null;
}
