import { mkdtempSync, readFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { generateKeyPairSync } from 'node:crypto';
import { writeFileSync } from 'node:fs';
import { describe, expect, it } from 'vitest';
import { ConfigError, loadConfig } from './config.ts';

describe('loadConfig', () => {
  const dataDir = () => mkdtempSync(path.join(tmpdir(), 'sendwell-config-'));

  it('applies the documented defaults', () => {
    const dir = dataDir();
    const config = loadConfig({ DATA_DIR: dir });
    expect(config).toMatchObject({
      port: 5000,
      databaseUrl: undefined,
      smtpUrl: undefined,
      publicUrl: 'http://localhost:5000',
      secureCookies: false,
      authRateLimitPerMinute: 60,
      sendGuarantee: 'after-accept',
      dnsServers: [],
      unlimitedEmails: [],
      trustProxy: false,
      redisUrl: undefined,
      allowTestDomains: false,
    });
    expect(config.dataDir).toBe(dir);
  });

  it('generates a development secret once and keeps it in DATA_DIR', () => {
    const dir = dataDir();
    const first = loadConfig({ DATA_DIR: dir }).sessionSecret;
    expect(first.length).toBeGreaterThanOrEqual(32);
    expect(loadConfig({ DATA_DIR: dir }).sessionSecret).toBe(first);
    expect(readFileSync(path.join(dir, 'session-secret'), 'utf8')).toBe(first);
  });

  it.each([
    [{ PORT: 'abc' }, 'PORT'],
    [{ PORT: '70000' }, 'PORT'],
    [{ DATABASE_URL: 'mysql://x' }, 'DATABASE_URL: must be a URL starting with postgres:// or postgresql://'],
    [{ SMTP_URL: 'http://mail' }, 'SMTP_URL'],
    [{ PUBLIC_URL: 'ftp://x' }, 'PUBLIC_URL'],
    [{ SESSION_SECRET: 'short' }, 'SESSION_SECRET: must be at least 32 characters long'],
    [{ DNS_SERVERS: 'dns.example.com' }, 'DNS_SERVERS'],
    [{ LOG_LEVEL: 'loud' }, 'LOG_LEVEL'],
    [{ AUTH_RATE_LIMIT_PER_MINUTE: '0' }, 'AUTH_RATE_LIMIT_PER_MINUTE'],
    [{ SEND_GUARANTEE: 'exactly-twice' }, 'SEND_GUARANTEE'],
    [{ TRUST_PROXY: 'true' }, 'TRUST_PROXY: must be a number of proxy hops'],
    [{ TRUST_PROXY: '10.0.0.0/33' }, 'TRUST_PROXY'],
    [{ TRUST_PROXY: 'proxy.example.com' }, 'TRUST_PROXY'],
    [{ REDIS_URL: 'http://cache:6379' }, 'REDIS_URL: must be a URL starting with redis:// or rediss://'],
    [{ ALLOW_TEST_DOMAINS: 'yes' }, 'ALLOW_TEST_DOMAINS: must be true or false'],
    [{ MAIL_FROM_DOMAIN: 'bounces@mail.example.com' }, 'MAIL_FROM_DOMAIN: must be a domain name'],
  ])('stops with a clear message for %j', (env, expected) => {
    expect(() => loadConfig({ DATA_DIR: dataDir(), ...env })).toThrow(ConfigError);
    expect(() => loadConfig({ DATA_DIR: dataDir(), ...env })).toThrow(expected);
  });

  it('requires SESSION_SECRET in production', () => {
    expect(() => loadConfig({ NODE_ENV: 'production', DATA_DIR: dataDir() })).toThrow(
      'SESSION_SECRET: is required in production',
    );
  });

  it('marks cookies secure behind an https PUBLIC_URL and parses lists', () => {
    const config = loadConfig({
      DATA_DIR: dataDir(),
      PUBLIC_URL: 'https://mail.example.com/',
      DNS_SERVERS: '127.0.0.1:5353, 10.0.0.1',
      UNLIMITED_EMAILS: 'A@x.io, b@y.io',
    });
    expect(config.publicUrl).toBe('https://mail.example.com');
    expect(config.secureCookies).toBe(true);
    expect(config.dnsServers).toEqual(['127.0.0.1:5353', '10.0.0.1']);
    expect(config.unlimitedEmails).toEqual(['a@x.io', 'b@y.io']);
  });

  it.each([
    ['', false],
    ['0', false],
    ['1', 1],
    ['2', 2],
    ['10.0.0.0/8, 127.0.0.1', ['10.0.0.0/8', '127.0.0.1']],
    ['fd00::/8,::1,loopback', ['fd00::/8', '::1', 'loopback']],
  ])('reads TRUST_PROXY %j as %j (unset trusts no proxy)', (value, expected) => {
    expect(loadConfig({ DATA_DIR: dataDir(), TRUST_PROXY: value }).trustProxy).toEqual(expected);
  });

  it('reads REDIS_URL and ALLOW_TEST_DOMAINS', () => {
    const config = loadConfig({ DATA_DIR: dataDir(), REDIS_URL: 'redis://cache:6379/2', ALLOW_TEST_DOMAINS: 'true' });
    expect(config.redisUrl).toBe('redis://cache:6379/2');
    expect(config.allowTestDomains).toBe(true);
  });

  it('takes the installation’s mail domain from MAIL_FROM_DOMAIN, else the PUBLIC_URL host', () => {
    expect(loadConfig({ DATA_DIR: dataDir() }).mailFromDomain).toBe('localhost');
    expect(loadConfig({ DATA_DIR: dataDir(), PUBLIC_URL: 'https://App.Sendwell.example' }).mailFromDomain).toBe(
      'app.sendwell.example',
    );
    expect(
      loadConfig({
        DATA_DIR: dataDir(),
        PUBLIC_URL: 'https://app.sendwell.example',
        MAIL_FROM_DOMAIN: 'Mail.Sendwell.example',
      }).mailFromDomain,
    ).toBe('mail.sendwell.example');
  });

  it('reads the installation’s DKIM key from MAIL_DKIM_KEY_FILE, and stops on a file that is not one', () => {
    const dir = dataDir();
    expect(loadConfig({ DATA_DIR: dir }).installationDkim).toBeNull();
    const keyFile = path.join(dir, 'dkim.pem');
    const { privateKey } = generateKeyPairSync('rsa', { modulusLength: 1024 });
    writeFileSync(keyFile, privateKey.export({ type: 'pkcs8', format: 'pem' }));
    expect(loadConfig({ DATA_DIR: dir, MAIL_DKIM_KEY_FILE: keyFile }).installationDkim).toMatchObject({
      selector: 'sendwell',
      privateKey: expect.stringContaining('BEGIN PRIVATE KEY'),
    });
    expect(
      loadConfig({ DATA_DIR: dir, MAIL_DKIM_KEY_FILE: keyFile, MAIL_DKIM_SELECTOR: 'sw1' }).installationDkim?.selector,
    ).toBe('sw1');
    writeFileSync(path.join(dir, 'not-a-key.pem'), 'hello');
    expect(() => loadConfig({ DATA_DIR: dir, MAIL_DKIM_KEY_FILE: path.join(dir, 'not-a-key.pem') })).toThrow(
      'MAIL_DKIM_KEY_FILE: must name a readable PEM private key file',
    );
    expect(() => loadConfig({ DATA_DIR: dir, MAIL_DKIM_KEY_FILE: path.join(dir, 'missing.pem') })).toThrow(ConfigError);
  });
});
