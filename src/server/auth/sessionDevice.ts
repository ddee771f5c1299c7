import net from 'node:net';
import Bowser from 'bowser';
import type { IpPlaces } from './ipPlaces';

/**
 * What the profile page's session list says about a session: the browser and system from its user
 * agent, and an honest "where": this machine, the local network, or a public address with the
 * approximate place the offline IP data gives it (ipPlaces.ts), else the address alone.
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

/**
 * Where a session's requests came from, as precisely as the portal honestly knows: "This
 * computer", "Local network (10.0.0.7)", "Berlin, Germany (203.0.113.9)" (the place is
 * approximate; a country alone where the data has no city), or "IP address 203.0.113.9".
 */
export async function describePlace(ip: string | null, places: IpPlaces): Promise<string> {
  if (!ip) return 'Unknown address';
  const address = ip.startsWith('::ffff:') ? ip.slice(7) : ip;
  const family = net.isIPv6(address) ? 'ipv6' : net.isIPv4(address) ? 'ipv4' : null;
  if (!family) return 'Unknown address';
  if (LOOPBACK.check(address, family)) return 'This computer';
  if (PRIVATE_RANGES.check(address, family)) return `Local network (${address})`;
  const place = await places.placeOf(address);
  if (!place) return `IP address ${address}`;
  return `${place.city ? `${place.city}, ` : ''}${place.country} (${address})`;
}
