import { describe, expect, it } from 'vitest';
import { classifyAddress, isAllowedAddress } from './address-policy';

describe('outbound address policy', () => {
  it('classifies by range, IPv4-mapped IPv6 as the IPv4 address it maps', () => {
    const table: Record<string, 'public' | 'private' | 'forbidden'> = {
      // public (documentation-free, globally routed)
      '8.8.8.8': 'public',
      '1.1.1.1': 'public',
      '2606:4700:4700::1111': 'public',
      '::ffff:8.8.8.8': 'public',
      // the operator's machine and networks
      '127.0.0.1': 'private',
      '127.8.9.10': 'private',
      '::1': 'private',
      '::ffff:127.0.0.1': 'private',
      '10.1.2.3': 'private',
      '172.16.0.1': 'private',
      '172.31.255.255': 'private',
      '192.168.1.1': 'private',
      '100.64.0.1': 'private',
      'fd12:3456::1': 'private',
      '::ffff:10.0.0.1': 'private',
      // never
      '169.254.169.254': 'forbidden',
      '169.254.170.2': 'forbidden',
      '::ffff:169.254.169.254': 'forbidden',
      'fe80::1': 'forbidden',
      'fd00:ec2::254': 'forbidden',
      '100.100.100.200': 'forbidden',
      '192.0.0.192': 'forbidden',
      '0.0.0.0': 'forbidden',
      '::': 'forbidden',
      '255.255.255.255': 'forbidden',
      '224.0.0.1': 'forbidden',
      'ff02::1': 'forbidden',
      '240.0.0.1': 'forbidden',
      '192.0.2.10': 'forbidden',
      '198.18.0.1': 'forbidden',
      '2001:db8::1': 'forbidden',
      '64:ff9b::7f00:1': 'forbidden',
      '2002:7f00:1::': 'forbidden',
      '::7f00:1': 'forbidden',
      '4000::1': 'forbidden',
      'not-an-address': 'forbidden',
    };
    for (const [address, expected] of Object.entries(table)) expect(classifyAddress(address), address).toBe(expected);
  });

  it('allows private addresses only when the operator does', () => {
    expect(isAllowedAddress('8.8.8.8', { allowPrivateAddresses: false })).toBe(true);
    expect(isAllowedAddress('127.0.0.1', { allowPrivateAddresses: false })).toBe(false);
    expect(isAllowedAddress('127.0.0.1', { allowPrivateAddresses: true })).toBe(true);
    expect(isAllowedAddress('10.0.0.1', { allowPrivateAddresses: true })).toBe(true);
    expect(isAllowedAddress('169.254.169.254', { allowPrivateAddresses: true })).toBe(false);
    expect(isAllowedAddress('fd00:ec2::254', { allowPrivateAddresses: true })).toBe(false);
    expect(isAllowedAddress('100.100.100.200', { allowPrivateAddresses: true })).toBe(false);
  });
});
