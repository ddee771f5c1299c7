import os from 'node:os';
import path from 'node:path';
import maxmind from 'maxmind';
import { describe, expect, it, vi } from 'vitest';
import {
  ipPlacesFor,
  mmdbIpPlaces,
  NO_IP_PLACES,
  placeFromRecord,
  SHIPPED_PLACE_DATABASE,
} from '../../../src/server/auth/ipPlaces';
import { describePlace } from '../../../src/server/auth/sessionDevice';

const silent = { warn: () => {} };

describe('approximate places of session addresses (offline DB-IP country data)', () => {
  const shipped = ipPlacesFor(undefined, silent);

  // Countries checked in the shipped file (dbip-country.mmdb) before writing them here.
  it.each([
    ['8.8.8.8', 'United States'],
    ['81.2.69.142', 'United Kingdom'],
    ['133.11.0.1', 'Japan'],
    ['195.154.0.1', 'France'],
    ['2a00:1450:4001:82a::200e', 'Germany'],
  ])('places %s in %s', async (address, country) => {
    expect(await shipped.placeOf(address)).toEqual({ country });
  });

  it('knows no place for documentation and private addresses', async () => {
    expect(await shipped.placeOf('203.0.113.9')).toBeNull();
    expect(await shipped.placeOf('2001:db8::1')).toBeNull();
    expect(await shipped.placeOf('192.168.1.1')).toBeNull();
  });

  it('credits DB-IP, as its licence (CC BY 4.0) asks, only for the shipped data', () => {
    expect(shipped.attribution).toEqual({
      text: 'IP Geolocation by DB-IP',
      url: 'https://db-ip.com',
    });
    expect(ipPlacesFor('/srv/geo/other.mmdb', silent).attribution).toBeNull();
    expect(ipPlacesFor('off', silent)).toBe(NO_IP_PLACES);
  });

  it('says the place with the address, and keeps the honest wording where it has none', async () => {
    expect(await describePlace('8.8.8.8', shipped)).toBe('United States (8.8.8.8)');
    expect(await describePlace('::ffff:81.2.69.142', shipped)).toBe('United Kingdom (81.2.69.142)');
    expect(await describePlace('203.0.113.9', shipped)).toBe('IP address 203.0.113.9');
    expect(await describePlace('127.0.0.1', shipped)).toBe('This computer');
    expect(await describePlace('::1', shipped)).toBe('This computer');
    expect(await describePlace('10.0.0.7', shipped)).toBe('Local network (10.0.0.7)');
    expect(await describePlace('fd00::5', shipped)).toBe('Local network (fd00::5)');
    expect(await describePlace(null, shipped)).toBe('Unknown address');
    expect(await describePlace('not an address', shipped)).toBe('Unknown address');
    expect(await describePlace('8.8.8.8', NO_IP_PLACES)).toBe('IP address 8.8.8.8');
  });

  it('opens the file once per process, on the first lookup', async () => {
    const open = vi.spyOn(maxmind, 'open');
    try {
      const file = path.join(os.tmpdir(), `no-such-places-${process.pid}.mmdb`);
      const first = mmdbIpPlaces(file, silent);
      const second = mmdbIpPlaces(file, silent);
      expect(open).not.toHaveBeenCalled();
      await first.placeOf('8.8.8.8');
      await second.placeOf('1.1.1.1');
      await first.placeOf('9.9.9.9');
      expect(open).toHaveBeenCalledTimes(1);
    } finally {
      open.mockRestore();
    }
  });

  it('reads as addresses, saying so once in the log, when the file cannot be opened', async () => {
    const warn = vi.fn();
    const places = mmdbIpPlaces(path.join(os.tmpdir(), 'missing-places.mmdb'), { warn });
    expect(await describePlace('8.8.8.8', places)).toBe('IP address 8.8.8.8');
    expect(await describePlace('1.1.1.1', places)).toBe('IP address 1.1.1.1');
    expect(warn).toHaveBeenCalledTimes(1);
    expect(warn.mock.calls[0]?.[1]).toMatch(/could not be opened/);
  });

  it('reads city data in either MMDB family (ip-location-db and MaxMind GeoIP2)', () => {
    expect(placeFromRecord({ country_code: 'DE', city: 'Frankfurt am Main' })).toEqual({
      country: 'Germany',
      city: 'Frankfurt am Main',
    });
    expect(
      placeFromRecord({
        city: { names: { en: 'Lyon', fr: 'Lyon' } },
        country: { iso_code: 'FR', names: { en: 'France' } },
      }),
    ).toEqual({ country: 'France', city: 'Lyon' });
    expect(placeFromRecord({ registered_country: { iso_code: 'JP' } })).toEqual({
      country: 'Japan',
    });
    expect(placeFromRecord({ country_code: 'ZZZ' })).toBeNull();
    expect(placeFromRecord(null)).toBeNull();
    expect(placeFromRecord('US')).toBeNull();
  });

  it('ships the data inside the installed package (no download at run time)', () => {
    expect(SHIPPED_PLACE_DATABASE).toMatch(
      /node_modules\/@ip-location-db\/dbip-country-mmdb\/dbip-country\.mmdb$/,
    );
  });
});
