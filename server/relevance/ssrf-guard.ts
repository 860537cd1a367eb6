/**
 * Server-side request forgery guard for fetching user-supplied addresses: a landing-page URL must not
 * make our server read its own network (the database, the cloud metadata service at 169.254.169.254,
 * the admin panel on localhost). The host is resolved once, every address is checked, and the request
 * then connects to exactly the checked address (no second lookup an attacker's DNS could answer
 * differently: DNS rebinding).
 */
import { lookup } from 'node:dns/promises';
import { BlockList, isIP } from 'node:net';

const blocked = new BlockList();
for (const [network, prefix] of [
  ['0.0.0.0', 8], // "this" network
  ['10.0.0.0', 8],
  ['100.64.0.0', 10], // carrier-grade NAT
  ['127.0.0.0', 8], // loopback
  ['169.254.0.0', 16], // link-local, cloud metadata
  ['172.16.0.0', 12],
  ['192.0.0.0', 24],
  ['192.0.2.0', 24], // documentation
  ['192.168.0.0', 16],
  ['198.18.0.0', 15], // benchmarking
  ['198.51.100.0', 24],
  ['203.0.113.0', 24],
  ['224.0.0.0', 4], // multicast
  ['240.0.0.0', 4], // reserved, broadcast
] as const) {
  blocked.addSubnet(network, prefix, 'ipv4');
}
for (const [network, prefix] of [
  ['::', 128], // unspecified
  ['::1', 128], // loopback
  ['fc00::', 7], // unique local
  ['fe80::', 10], // link-local
  ['ff00::', 8], // multicast
  ['2001:db8::', 32], // documentation
  ['64:ff9b::', 96], // NAT64 can reach private IPv4
] as const) {
  blocked.addSubnet(network, prefix, 'ipv6');
}

/** True for loopback, private, link-local, multicast and other non-public addresses. */
export function isPrivateAddress(address: string): boolean {
  const family = isIP(address);
  if (family === 4) return blocked.check(address, 'ipv4');
  if (family === 6) {
    const lower = address.toLowerCase();
    // IPv4-mapped (::ffff:127.0.0.1) and IPv4-compatible forms are checked as the IPv4 they carry.
    const mapped = /^::(?:ffff:)?(\d+\.\d+\.\d+\.\d+)$/.exec(lower);
    if (mapped) return blocked.check(mapped[1], 'ipv4');
    const hexMapped = /^::ffff:([0-9a-f]{1,4}):([0-9a-f]{1,4})$/.exec(lower);
    if (hexMapped) {
      const high = Number.parseInt(hexMapped[1], 16);
      const low = Number.parseInt(hexMapped[2], 16);
      return blocked.check(`${high >> 8}.${high & 255}.${low >> 8}.${low & 255}`, 'ipv4');
    }
    return blocked.check(address, 'ipv6');
  }
  return true;
}

export interface ResolvedHost {
  address: string;
  family: 4 | 6;
}

export class HostRefusedError extends Error {
  constructor(readonly address: string) {
    super(`refused private address ${address}`);
    this.name = 'HostRefusedError';
  }
}

export type Resolver = (hostname: string) => Promise<ResolvedHost[]>;

export const systemResolver: Resolver = async (hostname) => (await lookup(hostname, { all: true, verbatim: true })).map((entry) => ({ address: entry.address, family: entry.family === 6 ? 6 : 4 }));

/**
 * The address to connect to for `hostname`. Refuses the host when any of its addresses is private
 * (a name resolving to both a public and a private address is an attack, not a misconfiguration).
 */
export async function resolvePublicAddress(hostname: string, options: { allowPrivateHosts: boolean; resolver?: Resolver }): Promise<ResolvedHost> {
  const bare = hostname.replace(/^\[|\]$/g, '');
  const literal = isIP(bare);
  const addresses: ResolvedHost[] = literal ? [{ address: bare, family: literal === 6 ? 6 : 4 }] : await (options.resolver ?? systemResolver)(bare);
  if (addresses.length === 0) throw Object.assign(new Error(`no address for ${bare}`), { code: 'ENOTFOUND' });
  if (!options.allowPrivateHosts) {
    const refused = addresses.find((entry) => isPrivateAddress(entry.address));
    if (refused) throw new HostRefusedError(refused.address);
  }
  return addresses[0];
}
