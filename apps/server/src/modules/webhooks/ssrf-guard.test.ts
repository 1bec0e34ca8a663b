import { createServer, type IncomingMessage, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { checkWebhookUrl, refusedAddressClass, type HostResolver } from './ssrf-guard.ts';
import { postWebhook } from './webhook-sender.ts';

const fixed = (...answers: string[][]): HostResolver & { calls: number } => {
  const resolver = Object.assign(
    async () => {
      const answer = answers[Math.min(resolver.calls, answers.length - 1)] ?? [];
      resolver.calls += 1;
      return answer;
    },
    { calls: 0 },
  );
  return resolver;
};

describe('the webhook SSRF guard', () => {
  it.each([
    ['127.0.0.1', 'loopback'],
    ['127.8.9.10', 'loopback'],
    ['::1', 'loopback'],
    ['10.1.2.3', 'private'],
    ['172.16.0.1', 'private'],
    ['172.31.255.255', 'private'],
    ['192.168.0.10', 'private'],
    ['169.254.169.254', 'link-local'],
    ['fe80::1', 'link-local'],
    ['100.64.0.1', 'carrier-grade NAT'],
    ['100.127.255.254', 'carrier-grade NAT'],
    ['fd00::1', 'unique-local'],
    ['fc12:3456::1', 'unique-local'],
    ['64:ff9b::a00:1', 'IPv4-embedding'],
    ['2002:a00:1::1', 'IPv4-embedding'],
    ['0.0.0.0', 'unspecified or reserved'],
    ['::', 'IPv4-embedding'],
    ['224.0.0.1', 'multicast'],
    ['255.255.255.255', 'unspecified or reserved'],
  ])('refuses %s (%s)', (address, name) => {
    expect(refusedAddressClass(address, false)).toBe(name);
  });

  it('refuses IPv4-mapped IPv6 addresses, whatever IPv4 address they carry', () => {
    for (const address of ['::ffff:127.0.0.1', '::ffff:10.0.0.1', '::ffff:7f00:1', '::ffff:93.184.216.34'])
      expect(refusedAddressClass(address, false), address).not.toBeNull();
  });

  it('lets public addresses through, and loopback only where allowed', () => {
    expect(refusedAddressClass('93.184.216.34', false)).toBeNull();
    expect(refusedAddressClass('2606:2800:220:1:248:1893:25c8:1946', false)).toBeNull();
    expect(refusedAddressClass('100.128.0.1', false)).toBeNull();
    expect(refusedAddressClass('127.0.0.1', true)).toBeNull();
    expect(refusedAddressClass('::1', true)).toBeNull();
    expect(refusedAddressClass('10.0.0.1', true)).toBe('private');
    expect(refusedAddressClass('169.254.169.254', true)).toBe('link-local');
  });

  it('checks URLs: https only, no credentials, every resolved address', async () => {
    const publicHost = { allowLoopback: false, resolve: fixed(['93.184.216.34']) };
    await expect(checkWebhookUrl('https://hooks.example.com/in', publicHost)).resolves.toBeUndefined();
    await expect(checkWebhookUrl('http://hooks.example.com/in', publicHost)).rejects.toThrow(
      'The URL must start with https://',
    );
    await expect(checkWebhookUrl('ftp://hooks.example.com/in', publicHost)).rejects.toThrow('https://');
    await expect(checkWebhookUrl('https://user:pw@hooks.example.com/in', publicHost)).rejects.toThrow('user name');
    for (const url of [
      'https://10.0.0.1/',
      'https://[::1]/',
      'https://[::ffff:127.0.0.1]/',
      'https://[fd00::5]/',
      'https://169.254.169.254/latest/meta-data',
      'https://100.64.1.1/',
      'https://0.0.0.0/',
      'https://2130706433/',
    ])
      await expect(checkWebhookUrl(url, publicHost), url).rejects.toThrow(/resolves to a/);
    // One refused address among several refuses the host (the socket could pick any of them).
    await expect(
      checkWebhookUrl('https://mixed.example.com/', {
        allowLoopback: false,
        resolve: fixed(['93.184.216.34', '10.0.0.7']),
      }),
    ).rejects.toThrow('resolves to a private address (10.0.0.7)');
    await expect(
      checkWebhookUrl('https://internal.example.com/', { allowLoopback: false, resolve: fixed(['127.0.0.1']) }),
    ).rejects.toThrow('loopback');
    // Loopback where allowed, even over http; but http never reaches anything else.
    await expect(
      checkWebhookUrl('http://localhost:8080/', { allowLoopback: true, resolve: fixed(['127.0.0.1']) }),
    ).resolves.toBeUndefined();
    await expect(
      checkWebhookUrl('http://public.example.com/', { allowLoopback: true, resolve: fixed(['93.184.216.34']) }),
    ).rejects.toThrow('https://');
  });
});

describe('posting a webhook through the guard', () => {
  let server: Server;
  let port: number;
  const received: { url: string; body: string }[] = [];
  let answer: (request: IncomingMessage, respond: (status: number, body: string, headers?: object) => void) => void;

  beforeAll(async () => {
    server = createServer((request, response) => {
      let body = '';
      request.on('data', (chunk: Buffer) => (body += chunk.toString()));
      request.on('end', () => {
        received.push({ url: request.url ?? '', body });
        answer(request, (status, text, headers = {}) => response.writeHead(status, { ...headers }).end(text));
      });
    });
    await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
    port = (server.address() as AddressInfo).port;
  });
  afterAll(async () => {
    server.closeAllConnections();
    await new Promise((resolve) => server.close(resolve));
  });

  it('connects to the address it checked: a DNS answer that changes after the check is not used', async () => {
    received.length = 0;
    answer = (_request, respond) => respond(204, '');
    // The first answer (checked, then pinned in the socket's lookup) is loopback, which tests allow;
    // any later answer would be a private address.
    const resolver = fixed(['127.0.0.1'], ['10.0.0.9']);
    const outcome = await postWebhook(`http://rebind.example.com:${port}/in`, {}, '{}', {
      allowLoopback: true,
      resolve: resolver,
    });
    expect(outcome).toMatchObject({ statusCode: 204, address: '127.0.0.1' });
    expect(resolver.calls).toBe(1);
    expect(received).toHaveLength(1);
  });

  it('refuses at connect time a name that resolved to a public address when checked and to loopback now', async () => {
    received.length = 0;
    answer = (_request, respond) => respond(204, '');
    const resolver = fixed(['93.184.216.34'], ['127.0.0.1']);
    const guard = { allowLoopback: false, resolve: resolver };
    await checkWebhookUrl(`https://rebind.example.com:${port}/in`, guard);
    const outcome = await postWebhook(`https://rebind.example.com:${port}/in`, {}, '{}', guard);
    expect(outcome.statusCode).toBeNull();
    expect(outcome.response).toBe('Refused: rebind.example.com resolves to a loopback address (127.0.0.1)');
    expect(received).toHaveLength(0);
  });

  it('refuses loopback and http where loopback is not allowed, before any connection', async () => {
    received.length = 0;
    const guard = { allowLoopback: false, resolve: fixed(['127.0.0.1']) };
    expect((await postWebhook(`http://127.0.0.1:${port}/in`, {}, '{}', guard)).response).toBe(
      'Refused: The URL must start with https://',
    );
    expect((await postWebhook(`https://127.0.0.1:${port}/in`, {}, '{}', guard)).response).toMatch(/loopback/);
    expect((await postWebhook(`https://[::ffff:127.0.0.1]:${port}/in`, {}, '{}', guard)).statusCode).toBeNull();
    expect(received).toHaveLength(0);
  });

  it('answers a redirect as it is, never following it', async () => {
    received.length = 0;
    answer = (request, respond) =>
      request.url === '/in'
        ? respond(302, 'moved', { location: `http://127.0.0.1:${port}/elsewhere` })
        : respond(200, 'followed');
    const outcome = await postWebhook(`http://127.0.0.1:${port}/in`, {}, '{}', {
      allowLoopback: true,
      resolve: fixed(['127.0.0.1']),
    });
    expect(outcome.statusCode).toBe(302);
    expect(outcome.response).toContain(`Redirect to http://127.0.0.1:${port}/elsewhere not followed`);
    expect(received.map((request) => request.url)).toEqual(['/in']);
  });

  it('keeps at most 1 KB of the answer, and gives up after the timeout', async () => {
    answer = (_request, respond) => respond(200, 'x'.repeat(50_000));
    const long = await postWebhook(`http://127.0.0.1:${port}/in`, {}, '{}', {
      allowLoopback: true,
      resolve: fixed(['127.0.0.1']),
    });
    expect(long.statusCode).toBe(200);
    expect(long.response).toHaveLength(1024);

    answer = () => undefined; // never answers
    const slow = await postWebhook(
      `http://127.0.0.1:${port}/in`,
      {},
      '{}',
      { allowLoopback: true, resolve: fixed(['127.0.0.1']) },
      300,
    );
    expect(slow).toMatchObject({ statusCode: null, response: 'No answer within 0.3 s' });
  });
});
