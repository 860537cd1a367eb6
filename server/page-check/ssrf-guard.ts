/**
 * Server-side request forgery guard for fetching user-supplied addresses: a landing-page URL must not
 * make our server read its own network (the database, the cloud metadata service at 169.254.169.254,
 * the admin panel on localhost). The host is resolved once, every address is checked, and the request
 * then connects to exactly the checked address (no second lookup an attacker's DNS could answer
 * differently: DNS rebinding).
 */
import { lookup } from 'node:dns/promises';
import { isIP } from 'node:net';
import ipaddr from 'ipaddr.js';

/**
 * True for every address that is not plain public unicast: loopback, private, link-local, CGNAT,
 * multicast, reserved and documentation ranges, and — since they can carry an IPv4 address that a
 * gateway on the way turns back into one — every IPv6 form embedding IPv4: mapped `::ffff:a.b.c.d`
 * (also as hex, `::ffff:7f00:1`), translated `::ffff:0:a.b.c.d`, IPv4-compatible `::a.b.c.d` / `::7f00:1`,
 * NAT64 `64:ff9b::/96` and `64:ff9b:1::/48`, 6to4 `2002::/16`, Teredo `2001::/32`. The classification is
 * ipaddr.js's (its IANA special-purpose tables); only what it calls `unicast` is allowed, so a range it
 * learns about later is refused too. Anything that does not parse as an address is refused.
 */
export function isPrivateAddress(address: string): boolean {
  const bare = address.replace(/^\[|\]$/g, '');
  if (!isIP(bare.split('%')[0]!) || !ipaddr.isValid(bare)) return true;
  const parsed = ipaddr.parse(bare);
  if (parsed.range() !== 'unicast') return true;
  if (parsed.kind() === 'ipv6') {
    // ::/96 (IPv4-compatible, deprecated): ipaddr.js has no range for it and calls it unicast.
    const parts = (parsed as ipaddr.IPv6).parts;
    if (parts.slice(0, 6).every((part) => part === 0)) return true;
  }
  return false;
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
export async function resolvePublicAddress(
  hostname: string,
  options: { allowPrivateHosts: boolean; resolver?: Resolver; /** The classifier; tests narrow it to let a local server be the first hop. */ isRefused?: (address: string) => boolean },
): Promise<ResolvedHost> {
  const bare = hostname.replace(/^\[|\]$/g, '');
  const literal = isIP(bare);
  const addresses: ResolvedHost[] = literal ? [{ address: bare, family: literal === 6 ? 6 : 4 }] : await (options.resolver ?? systemResolver)(bare);
  if (addresses.length === 0) throw Object.assign(new Error(`no address for ${bare}`), { code: 'ENOTFOUND' });
  if (!options.allowPrivateHosts) {
    const refused = addresses.find((entry) => (options.isRefused ?? isPrivateAddress)(entry.address));
    if (refused) throw new HostRefusedError(refused.address);
  }
  return addresses[0];
}
