import type { LookupAddress } from 'node:dns';
import { lookup } from 'node:dns/promises';
import { BlockList, isIP, type LookupFunction } from 'node:net';

/** The ranges a webhook may not reach unless an operator allows it (docs/security.md). */
const PRIVATE = new BlockList();
PRIVATE.addSubnet('0.0.0.0', 8, 'ipv4'); // "this network", 0.0.0.0 included
PRIVATE.addSubnet('10.0.0.0', 8, 'ipv4');
PRIVATE.addSubnet('100.64.0.0', 10, 'ipv4'); // carrier-grade NAT
PRIVATE.addSubnet('169.254.0.0', 16, 'ipv4'); // link-local, cloud metadata 169.254.169.254
PRIVATE.addSubnet('172.16.0.0', 12, 'ipv4');
PRIVATE.addSubnet('192.168.0.0', 16, 'ipv4');
PRIVATE.addSubnet('192.0.0.0', 24, 'ipv4'); // IETF protocol assignments
PRIVATE.addSubnet('198.18.0.0', 15, 'ipv4'); // benchmarking networks
PRIVATE.addSubnet('224.0.0.0', 4, 'ipv4'); // multicast
PRIVATE.addSubnet('240.0.0.0', 4, 'ipv4'); // reserved, 255.255.255.255 included
PRIVATE.addAddress('::', 'ipv6');
PRIVATE.addSubnet('64:ff9b::', 96, 'ipv6'); // NAT64: an IPv4 address behind a translator
PRIVATE.addSubnet('100::', 64, 'ipv6'); // discard-only
PRIVATE.addSubnet('2002::', 16, 'ipv6'); // 6to4: an IPv4 address inside
PRIVATE.addSubnet('fc00::', 7, 'ipv6'); // unique local
PRIVATE.addSubnet('fe80::', 10, 'ipv6'); // link-local
PRIVATE.addSubnet('ff00::', 8, 'ipv6'); // multicast

const LOOPBACK = new BlockList();
LOOPBACK.addSubnet('127.0.0.0', 8, 'ipv4');
LOOPBACK.addAddress('::1', 'ipv6');

/** What an address is, for the delivery rule. */
export type AddressClass = 'public' | 'private' | 'loopback';

/**
 * Classifies an IP address (docs/security.md, "Webhook delivery addresses"): loopback
 * (127/8, ::1), private (RFC 1918, CGNAT 100.64/10, link-local 169.254/16 and fe80::/10, unique
 * local fc00::/7, the unspecified addresses, multicast and reserved ranges, and the IPv6 forms
 * that carry an IPv4 address: NAT64 64:ff9b::/96, 6to4 2002::/16), or public. An IPv4-mapped IPv6 address
 * (::ffff:a.b.c.d, either spelling) is classified as the IPv4 address it carries, since that is
 * where a connection to it goes. Anything that is not an IP address is refused as private.
 */
export function classifyAddress(address: string): AddressClass {
  const ip = unmapped(address.toLowerCase());
  const family = isIP(ip);
  if (family === 0) return 'private';
  const type = family === 4 ? 'ipv4' : 'ipv6';
  if (LOOPBACK.check(ip, type)) return 'loopback';
  if (PRIVATE.check(ip, type)) return 'private';
  return 'public';
}

/** `::ffff:10.0.0.1` or `::ffff:a00:1` → `10.0.0.1`; any other address unchanged. */
function unmapped(address: string): string {
  if (isIP(address) !== 6) return address;
  const dotted = /^(?:0{0,4}:){0,5}:?(?:0{0,4}:)?ffff:(\d{1,3}(?:\.\d{1,3}){3})$/.exec(address);
  if (dotted && isIP(dotted[1]) === 4) return dotted[1];
  const hex = /^(?:0{0,4}:){0,5}:?(?:0{0,4}:)?ffff:([0-9a-f]{1,4}):([0-9a-f]{1,4})$/.exec(address);
  if (!hex) return address;
  const high = parseInt(hex[1], 16);
  const low = parseInt(hex[2], 16);
  return [high >> 8, high & 255, low >> 8, low & 255].join('.');
}

/** Who may be reached besides public addresses (config). */
export interface AddressPolicy {
  /** Host names or IP addresses an operator allows although they are private. */
  allowedPrivateHosts: readonly string[];
  /** WEBHOOKS_ALLOW_INSECURE: loopback receivers (local development and tests). */
  allowLoopback: boolean;
}

/** A host resolved and checked: connect to `address`, nothing else. */
export interface CheckedAddress {
  address: string;
  family: 4 | 6;
}

/**
 * The `lookup` of a request to a checked address: every name resolves to `checked` and nothing
 * else, so the connection goes to the address the rule accepted (no second DNS answer between
 * the check and the connect).
 */
export function pinnedLookup(checked: CheckedAddress): LookupFunction {
  return (_host, options, done) => {
    if ((options as { all?: boolean }).all) {
      (done as unknown as (e: null, a: LookupAddress[]) => void)(null, [checked]);
    } else {
      done(null, checked.address, checked.family);
    }
  };
}

/** Delivery refused by the address rule; its message goes to the delivery log. */
export class AddressNotAllowedError extends Error {}

/**
 * Resolves a URL's host once, every address it has (A and AAAA), and refuses when any of them
 * is not public, unless the host name or that address is on the allow-list (or it is loopback
 * and loopback is allowed). Returns the first address, which the request then connects to
 * without a second lookup, so a DNS answer that changes in between cannot swap it.
 */
export async function resolveDeliveryAddress(
  hostname: string,
  policy: AddressPolicy,
): Promise<CheckedAddress> {
  const host = hostname.replace(/^\[(.*)\]$/, '$1').toLowerCase();
  const allowed = new Set(policy.allowedPrivateHosts.map((h) => h.toLowerCase()));
  const family = isIP(host);
  const addresses =
    family === 0 ? await lookup(host, { all: true, verbatim: true }) : [{ address: host, family }];
  if (addresses.length === 0) throw new AddressNotAllowedError(`no address for ${host}`);
  for (const { address } of addresses) {
    const kind = classifyAddress(address);
    if (kind === 'public' || allowed.has(host) || allowed.has(address.toLowerCase())) continue;
    if (kind === 'loopback' && policy.allowLoopback) continue;
    throw new AddressNotAllowedError(`address not allowed: ${host} resolves to ${address}`);
  }
  const first = addresses[0];
  return { address: first.address, family: first.family === 6 ? 6 : 4 };
}
