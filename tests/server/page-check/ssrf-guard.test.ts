import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { fetchPage } from '../../../server/page-check/fetcher.js';
import { isPrivateAddress, resolvePublicAddress } from '../../../server/page-check/ssrf-guard.js';

describe('SSRF guard: only public unicast addresses', () => {
  it.each([
    ['IPv4 loopback', '127.0.0.1'],
    ['IPv4 private', '10.1.2.3'],
    ['IPv4 private 172.16/12', '172.20.0.1'],
    ['IPv4 link-local (cloud metadata)', '169.254.169.254'],
    ['IPv4 CGNAT', '100.64.0.1'],
    ['IPv4 "this" network', '0.0.0.0'],
    ['IPv4 broadcast', '255.255.255.255'],
    ['IPv4 documentation', '198.51.100.7'],
    ['IPv6 loopback', '::1'],
    ['IPv6 unspecified', '::'],
    ['IPv6 unique local', 'fd00::1'],
    ['IPv6 link-local with a zone', 'fe80::1%eth0'],
    ['IPv6 multicast', 'ff02::1'],
    ['IPv4-mapped, dotted', '::ffff:127.0.0.1'],
    ['IPv4-mapped, hex', '::ffff:7f00:1'],
    ['IPv4-mapped, of a public address too', '::ffff:93.184.216.34'],
    ['IPv4-translated (RFC 6145)', '::ffff:0:7f00:1'],
    ['IPv4-compatible, hex', '::7f00:1'],
    ['IPv4-compatible, dotted', '::127.0.0.1'],
    ['IPv4-compatible, of a private address', '::a00:1'],
    ['NAT64 (64:ff9b::/96)', '64:ff9b::7f00:1'],
    ['NAT64, dotted', '64:ff9b::10.0.0.1'],
    ['local-use NAT64 (64:ff9b:1::/48)', '64:ff9b:1::a00:1'],
    ['6to4 (2002::/16)', '2002:7f00:1::1'],
    ['Teredo (2001::/32)', '2001:0:4136:e378:8000:63bf:80ff:fffe'],
    ['IPv6 documentation', '2001:db8::1'],
    ['bracketed', '[::1]'],
    ['not an address', 'localhost'],
  ])('refuses %s (%s)', (_name, address) => {
    expect(isPrivateAddress(address)).toBe(true);
  });

  it.each([
    ['public IPv4', '93.184.216.34'],
    ['public IPv4 (Yandex)', '77.88.55.242'],
    ['public IPv6', '2a02:6b8:a::a'],
    ['public IPv6 (Google)', '2001:4860:4860::8888'],
  ])('allows %s (%s)', (_name, address) => {
    expect(isPrivateAddress(address)).toBe(false);
  });

  it('checks every address DNS returns: one embedded loopback among public ones refuses the host', async () => {
    const resolver = async () => [
      { address: '93.184.216.34', family: 4 as const },
      { address: '64:ff9b::7f00:1', family: 6 as const },
    ];
    await expect(resolvePublicAddress('shop.example.com', { allowPrivateHosts: false, resolver })).rejects.toMatchObject({ name: 'HostRefusedError', address: '64:ff9b::7f00:1' });
    await expect(resolvePublicAddress('shop.example.com', { allowPrivateHosts: false, resolver: async () => [{ address: '93.184.216.34', family: 4 }] })).resolves.toEqual({ address: '93.184.216.34', family: 4 });
  });
});

describe('the fetcher refuses IPv6 forms of a local server (real HTTP on 127.0.0.1 listening)', () => {
  let server: Server;
  let port: number;
  beforeAll(async () => {
    server = createServer((request, response) => {
      const redirect = new URL(request.url ?? '/', 'http://x').searchParams.get('to');
      if (redirect) {
        response.writeHead(302, { location: redirect });
        return response.end();
      }
      response.writeHead(200, { 'content-type': 'text/html' });
      response.end('<h1>внутренняя страница</h1>');
    });
    await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
    port = (server.address() as AddressInfo).port;
  });
  afterAll(async () => {
    server.closeAllConnections();
    await new Promise((resolve) => server.close(resolve));
  });

  it.each(['[::ffff:127.0.0.1]', '[::ffff:7f00:1]', '[::ffff:0:7f00:1]', '[::7f00:1]', '[::127.0.0.1]', '[64:ff9b::7f00:1]', '[2002:7f00:1::]', '127.1', '0x7f.0.0.1', '2130706433'])(
    'http://%s/ is refused as a page error, marked refused, nothing read',
    async (host) => {
      const page = await fetchPage(`http://${host}:${port}/`);
      expect(page.status).toBeNull();
      expect(page.html).toBe('');
      expect(page.refused).toBe(true);
      expect(page.error).toMatch(/^Адрес ведёт во внутреннюю сеть \(.+\): такие страницы не проверяются$/);
    },
  );

  it('a name resolving to an embedded-IPv4 form is refused the same way', async () => {
    const page = await fetchPage(`http://shop.example.com:${port}/`, { resolver: async () => [{ address: '::ffff:7f00:1', family: 6 }] });
    expect(page.refused).toBe(true);
    expect(page.error).toContain('::ffff:7f00:1');
  });

  it.each(['[::ffff:7f00:1]', '[64:ff9b::7f00:1]', '169.254.169.254', 'metadata.internal'])('checks every redirect hop: a redirect to %s is refused', async (host) => {
    // Only for this test the local server counts as public, so it can be the first hop.
    const isRefused = (address: string) => address !== '127.0.0.1' && isPrivateAddress(address);
    const resolver = async () => [{ address: '::ffff:a9fe:a9fe', family: 6 as const }];
    const target = `http://${host}:${port}/secret`;
    const page = await fetchPage(`http://127.0.0.1:${port}/?to=${encodeURIComponent(target)}`, { isRefused, resolver });
    expect(page.refused).toBe(true);
    expect(page.html).toBe('');
    expect(page.redirects).toEqual([`http://127.0.0.1:${port}/?to=${encodeURIComponent(target)}`]);
    expect(page.error).toMatch(/^Адрес ведёт во внутреннюю сеть/);
  });
});
