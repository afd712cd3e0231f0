import { execFile } from 'node:child_process';
import fs from 'node:fs/promises';
import http from 'node:http';
import https from 'node:https';
import type { AddressInfo } from 'node:net';
import os from 'node:os';
import path from 'node:path';
import { promisify } from 'node:util';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createClient } from 'webdav';
import {
  classifyAddress,
  connectChecked,
  deniedReason,
  guardedAgents,
  isOutboundRefusal,
  OutboundTargetError,
  type ResolvedAddress,
  resolveTarget,
} from './outbound';

const FORBIDDEN: Array<[string, string]> = [
  // IPv4
  ['0.0.0.0', 'unspecified'],
  ['0.1.2.3', 'unspecified'],
  ['255.255.255.255', 'broadcast'],
  ['224.0.0.1', 'multicast'],
  ['239.255.255.250', 'multicast'],
  ['169.254.0.1', 'linkLocal'],
  ['169.254.169.254', 'metadata'],
  ['169.254.170.2', 'metadata'],
  ['168.63.129.16', 'metadata'],
  ['100.100.100.200', 'metadata'],
  ['192.0.0.192', 'metadata'],
  ['240.0.0.1', 'reserved'],
  ['192.0.2.10', 'reserved'],
  ['198.18.0.1', 'reserved'],
  ['203.0.113.5', 'reserved'],
  // IPv6
  ['::', 'unspecified'],
  ['fe80::1', 'linkLocal'],
  ['fe80::1%eth0', 'linkLocal'],
  ['ff02::1', 'multicast'],
  ['fd00:ec2::254', 'metadata'],
  ['2001:db8::1', 'reserved'],
  ['100::1', 'discard'],
  ['2002:7f00:1::1', '6to4'],
  ['2001:0:4136:e378:8000:63bf:3fff:fdd2', 'teredo'],
  ['::127.0.0.1', 'ipv4Compatible'],
  ['::a9fe:a9fe', 'ipv4Compatible'],
  ['::8.8.8.8', 'ipv4Compatible'],
  ['4000::1', 'unassigned'],
  // IPv4 carried in IPv6: judged by the IPv4 address
  ['::ffff:169.254.169.254', 'ipv4Mapped:metadata'],
  ['::ffff:a9fe:a9fe', 'ipv4Mapped:metadata'],
  ['::ffff:0.0.0.0', 'ipv4Mapped:unspecified'],
  ['::ffff:224.0.0.1', 'ipv4Mapped:multicast'],
  ['::ffff:0:169.254.169.254', 'rfc6145:metadata'],
  ['64:ff9b::169.254.169.254', 'nat64:metadata'],
  ['64:ff9b::a9fe:a9fe', 'nat64:metadata'],
  ['64:ff9b::255.255.255.255', 'nat64:broadcast'],
  ['64:ff9b:1::169.254.169.254', 'nat64Local:metadata'],
  ['not-an-address', 'not an address'],
];

const PRIVATE: Array<[string, string]> = [
  ['127.0.0.1', 'loopback'],
  ['127.255.255.254', 'loopback'],
  ['10.0.0.1', 'private'],
  ['172.16.0.1', 'private'],
  ['172.31.255.254', 'private'],
  ['192.168.1.10', 'private'],
  ['100.64.0.1', 'carrierGradeNat'],
  ['100.127.255.254', 'carrierGradeNat'],
  ['::1', 'loopback'],
  ['fc00::1', 'uniqueLocal'],
  ['fd12:3456:789a::1', 'uniqueLocal'],
  ['fec0::1', 'deprecatedSiteLocal'],
  ['::ffff:127.0.0.1', 'ipv4Mapped:loopback'],
  ['::ffff:7f00:1', 'ipv4Mapped:loopback'],
  ['::ffff:10.1.2.3', 'ipv4Mapped:private'],
  ['::ffff:192.168.0.1', 'ipv4Mapped:private'],
  ['::ffff:100.64.0.1', 'ipv4Mapped:carrierGradeNat'],
  ['::ffff:0:127.0.0.1', 'rfc6145:loopback'],
  ['64:ff9b::127.0.0.1', 'nat64:loopback'],
  ['64:ff9b::10.0.0.1', 'nat64:private'],
  ['64:ff9b::7f00:1', 'nat64:loopback'],
  ['64:ff9b:1::7f00:1', 'nat64Local:loopback'],
  // The operator's own NAT64 translator: inside its network, whatever it translates to.
  ['64:ff9b:1::8.8.8.8', 'nat64Local:unicast'],
];

const PUBLIC = [
  '8.8.8.8',
  '1.1.1.1',
  '93.184.216.34',
  '172.32.0.1',
  '100.128.0.1',
  '2606:4700:4700::1111',
  '2a00:1450:4001:80b::200e',
  '::ffff:8.8.8.8',
  '64:ff9b::8.8.8.8',
];

describe('classifyAddress', () => {
  it.each(FORBIDDEN)('forbids %s (%s), whatever the operator allows', (address, range) => {
    expect(classifyAddress(address)).toEqual({ verdict: 'forbidden', range });
    expect(deniedReason(address, { allowPrivate: false })).toBe(range);
    expect(deniedReason(address, { allowPrivate: true })).toBe(range);
  });

  it.each(PRIVATE)('counts %s (%s) as private: denied unless the operator allows private targets', (address, range) => {
    expect(classifyAddress(address)).toEqual({ verdict: 'private', range });
    expect(deniedReason(address, { allowPrivate: false })).toBe(range);
    expect(deniedReason(address, { allowPrivate: true })).toBeNull();
  });

  it.each(PUBLIC)('allows the public address %s', (address) => {
    expect(classifyAddress(address).verdict).toBe('public');
    expect(deniedReason(address, { allowPrivate: false })).toBeNull();
  });

  it('takes bracketed IPv6 literals', () => {
    expect(classifyAddress('[::1]')).toEqual({ verdict: 'private', range: 'loopback' });
  });
});

/** A resolver with fixed answers that counts its calls. */
function fakeResolver(answers: Record<string, string[]>) {
  const calls: string[] = [];
  const resolve = async (hostname: string): Promise<ResolvedAddress[]> => {
    calls.push(hostname);
    const found = answers[hostname];
    if (!found) throw Object.assign(new Error(`getaddrinfo ENOTFOUND ${hostname}`), { code: 'ENOTFOUND' });
    return found.map((address) => ({ address, family: address.includes(':') ? 6 : 4 }));
  };
  return { resolve, calls };
}

describe('resolveTarget', () => {
  const dnsAnswers = {
    'loopback.test': ['127.0.0.1'],
    'v6-loopback.test': ['::1'],
    'lan.test': ['192.168.1.20'],
    'metadata.test': ['169.254.169.254'],
    'mapped-metadata.test': ['::ffff:169.254.169.254'],
    'nat64-loopback.test': ['64:ff9b::7f00:1'],
    'ula.test': ['fd00::5'],
    'cgnat.test': ['100.64.1.1'],
    'unspecified.test': ['0.0.0.0'],
    'mixed.test': ['93.184.216.34', '10.0.0.1'],
    'public.test': ['93.184.216.34', '2606:2800:220:1:248:1893:25c8:1946'],
  };

  it.each([
    'loopback.test',
    'v6-loopback.test',
    'lan.test',
    'metadata.test',
    'mapped-metadata.test',
    'nat64-loopback.test',
    'ula.test',
    'cgnat.test',
    'unspecified.test',
    'mixed.test',
  ])('refuses %s, a name that resolves to a denied address, after one lookup', async (name) => {
    const dns = fakeResolver(dnsAnswers);
    await expect(resolveTarget(name, { allowPrivate: false, resolve: dns.resolve })).rejects.toBeInstanceOf(
      OutboundTargetError,
    );
    expect(dns.calls).toEqual([name]);
  });

  it('allows private names only when the operator does, never the metadata service', async () => {
    const dns = fakeResolver(dnsAnswers);
    const allow = { allowPrivate: true, resolve: dns.resolve };
    await expect(resolveTarget('lan.test', allow)).resolves.toMatchObject({
      addresses: [{ address: '192.168.1.20', family: 4 }],
    });
    await expect(resolveTarget('mixed.test', allow)).resolves.toBeTruthy();
    await expect(resolveTarget('metadata.test', allow)).rejects.toThrow(/metadata/);
    await expect(resolveTarget('mapped-metadata.test', allow)).rejects.toThrow(/ipv4Mapped:metadata/);
    await expect(resolveTarget('unspecified.test', allow)).rejects.toThrow(/unspecified/);
  });

  it('returns every checked address of a public name, and the name for TLS', async () => {
    const dns = fakeResolver(dnsAnswers);
    const target = await resolveTarget('public.test', { allowPrivate: false, resolve: dns.resolve });
    expect(target).toEqual({
      host: 'public.test',
      servername: 'public.test',
      addresses: [
        { address: '93.184.216.34', family: 4 },
        { address: '2606:2800:220:1:248:1893:25c8:1946', family: 6 },
      ],
    });
  });

  it('checks address literals without resolving them', async () => {
    const dns = fakeResolver({});
    const policy = { allowPrivate: false, resolve: dns.resolve };
    await expect(resolveTarget('127.0.0.1', policy)).rejects.toThrow(/loopback/);
    await expect(resolveTarget('[::1]', policy)).rejects.toThrow(/loopback/);
    await expect(resolveTarget('[::ffff:169.254.169.254]', policy)).rejects.toThrow(/metadata/);
    await expect(resolveTarget('8.8.8.8', policy)).resolves.toEqual({
      host: '8.8.8.8',
      servername: undefined,
      addresses: [{ address: '8.8.8.8', family: 4 }],
    });
    expect(dns.calls).toEqual([]);
  });

  it('refuses localhost and the odd spellings of 127.0.0.1 through the system resolver', async () => {
    for (const name of ['localhost', '2130706433', '0x7f.1', '127.1']) {
      await expect(resolveTarget(name, { allowPrivate: false })).rejects.toBeInstanceOf(OutboundTargetError);
    }
    await expect(resolveTarget('localhost', { allowPrivate: true })).resolves.toMatchObject({ host: 'localhost' });
  });
});

describe('guarded connections', () => {
  let server: http.Server;
  let port = 0;
  const seen: Array<{ host: string | undefined; url: string | undefined }> = [];

  beforeAll(async () => {
    server = http.createServer((request, response) => {
      seen.push({ host: request.headers.host, url: request.url });
      if (request.url === '/redirect') {
        response.writeHead(302, { location: 'http://[::ffff:169.254.169.254]/latest/meta-data/' }).end();
        return;
      }
      response.end('ok');
    });
    await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
    port = (server.address() as AddressInfo).port;
  });
  afterAll(async () => {
    await new Promise((resolve) => server.close(resolve));
  });

  const get = (url: string, agent: http.Agent) =>
    new Promise<{ status: number; body: string }>((resolve, reject) => {
      http
        .get(url, { agent }, (response) => {
          let body = '';
          response.on('data', (chunk) => {
            body += chunk;
          });
          response.on('end', () => resolve({ status: response.statusCode ?? 0, body }));
        })
        .on('error', reject);
    });

  it('refuses a socket to a denied address, by literal or by name, before connecting', async () => {
    const dns = fakeResolver({ 'dav.test': ['127.0.0.1'] });
    const { httpAgent } = guardedAgents({ allowPrivate: false, resolve: dns.resolve });
    seen.length = 0;
    await expect(get(`http://127.0.0.1:${port}/`, httpAgent)).rejects.toBeInstanceOf(OutboundTargetError);
    await expect(get(`http://dav.test:${port}/`, httpAgent)).rejects.toBeInstanceOf(OutboundTargetError);
    expect(seen).toEqual([]);
  });

  it('connects to the checked address with the Host header of the name, resolving once per connection', async () => {
    const dns = fakeResolver({ 'dav.test': ['127.0.0.1'] });
    const { httpAgent } = guardedAgents({ allowPrivate: true, resolve: dns.resolve });
    seen.length = 0;
    expect(await get(`http://dav.test:${port}/hello`, httpAgent)).toEqual({ status: 200, body: 'ok' });
    expect(seen).toEqual([{ host: `dav.test:${port}`, url: '/hello' }]);
    expect(dns.calls).toEqual(['dav.test']);
  });

  it('checks the target of a redirect the webdav client follows', async () => {
    const client = createClient(`http://127.0.0.1:${port}/`, guardedAgents({ allowPrivate: true }));
    seen.length = 0;
    const failure = await client.customRequest('/redirect', { method: 'GET' }).catch((e: unknown) => e);
    expect(isOutboundRefusal(failure)).toBe(true);
    expect((failure as Error).message).toMatch(/\(ipv4Mapped:metadata\)/);
    expect(seen).toEqual([{ host: `127.0.0.1:${port}`, url: '/redirect' }]);
  });

  it('keeps TLS SNI on the host name while connecting to the checked address', async () => {
    const dir = await fs.mkdtemp(path.join(os.tmpdir(), 'invoicebox-tls-'));
    try {
      await promisify(execFile)('openssl', [
        'req',
        '-x509',
        '-newkey',
        'rsa:2048',
        '-nodes',
        '-days',
        '1',
        '-subj',
        '/CN=secure.test',
        '-keyout',
        path.join(dir, 'key.pem'),
        '-out',
        path.join(dir, 'cert.pem'),
      ]);
      const names: Array<string | false | null> = [];
      const tlsServer = https.createServer(
        { key: await fs.readFile(path.join(dir, 'key.pem')), cert: await fs.readFile(path.join(dir, 'cert.pem')) },
        (request, response) => response.end(request.headers.host),
      );
      tlsServer.on('secureConnection', (socket) => names.push(socket.servername));
      await new Promise<void>((resolve) => tlsServer.listen(0, '127.0.0.1', resolve));
      const tlsPort = (tlsServer.address() as AddressInfo).port;
      const dns = fakeResolver({ 'secure.test': ['127.0.0.1'] });
      const { httpsAgent } = guardedAgents({ allowPrivate: true, resolve: dns.resolve });
      const host = await new Promise<string>((resolve, reject) => {
        https
          .get(`https://secure.test:${tlsPort}/`, { agent: httpsAgent, rejectUnauthorized: false }, (response) => {
            let body = '';
            response.on('data', (chunk) => {
              body += chunk;
            });
            response.on('end', () => resolve(body));
          })
          .on('error', reject);
      });
      await new Promise((resolve) => tlsServer.close(resolve));
      expect(host).toBe(`secure.test:${tlsPort}`);
      expect(names).toEqual(['secure.test']);
    } finally {
      await fs.rm(dir, { recursive: true, force: true });
    }
  });

  it('connectChecked refuses denied targets and connects to allowed ones', async () => {
    await expect(connectChecked('127.0.0.1', port, { allowPrivate: false }, 1000)).rejects.toBeInstanceOf(
      OutboundTargetError,
    );
    await expect(connectChecked('localhost', port, { allowPrivate: false }, 1000)).rejects.toBeInstanceOf(
      OutboundTargetError,
    );
    const socket = await connectChecked('127.0.0.1', port, { allowPrivate: true }, 1000);
    expect(socket.remoteAddress).toBe('127.0.0.1');
    socket.destroy();
  });
});
