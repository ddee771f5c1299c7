import net from 'node:net';
import Bowser from 'bowser';

/**
 * What the profile page's session list says about a session: the browser and system from its user
 * agent, and an honest "where". Without a geolocation database, a place name would be a guess;
 * the portal says what it knows: this machine, the local network, or the address itself.
 */
export function describeDevice(userAgent: string | null): string {
  if (!userAgent) return 'Unknown device';
  const parsed = Bowser.parse(userAgent);
  const browser = [parsed.browser.name, parsed.browser.version?.split('.')[0]]
    .filter(Boolean)
    .join(' ');
  const system = parsed.os.name;
  if (!browser && !system) return 'Unknown device';
  if (!system) return browser;
  return browser ? `${browser} on ${system}` : system;
}

const PRIVATE_RANGES = new net.BlockList();
PRIVATE_RANGES.addSubnet('10.0.0.0', 8);
PRIVATE_RANGES.addSubnet('172.16.0.0', 12);
PRIVATE_RANGES.addSubnet('192.168.0.0', 16);
PRIVATE_RANGES.addSubnet('169.254.0.0', 16);
PRIVATE_RANGES.addSubnet('100.64.0.0', 10); // carrier-grade NAT: not a public address either
PRIVATE_RANGES.addSubnet('fc00::', 7, 'ipv6');
PRIVATE_RANGES.addSubnet('fe80::', 10, 'ipv6');

const LOOPBACK = new net.BlockList();
LOOPBACK.addSubnet('127.0.0.0', 8);
LOOPBACK.addAddress('::1', 'ipv6');

/** Where a session's requests came from, as precisely as the portal honestly knows. */
export function describePlace(ip: string | null): string {
  if (!ip) return 'Unknown address';
  const address = ip.startsWith('::ffff:') ? ip.slice(7) : ip;
  const family = net.isIPv6(address) ? 'ipv6' : net.isIPv4(address) ? 'ipv4' : null;
  if (!family) return 'Unknown address';
  if (LOOPBACK.check(address, family)) return 'This computer';
  if (PRIVATE_RANGES.check(address, family)) return `Local network (${address})`;
  return `IP address ${address}`;
}
