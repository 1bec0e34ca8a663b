import { describe, expect, it } from 'vitest';
import {
  dkimRecordValue,
  dmarcRecordValue,
  evaluateDkim,
  evaluateDmarc,
  evaluateSpf,
  parseTags,
  recordNote,
  spfRecordValue,
} from './dns-records.ts';

const OURS = 'include:_spf.sendwell.test';

describe('SPF rules', () => {
  it('verifies one well-formed SPF record that carries our mechanism, among other TXT records', () => {
    expect(evaluateSpf(['google-site-verification=abc', spfRecordValue(OURS)], OURS)).toEqual({
      status: 'verified',
      found: null,
    });
    expect(evaluateSpf(['v=spf1 include:_spf.google.com +include:_SPF.sendwell.test -all'], OURS).status).toBe(
      'verified',
    );
  });

  it('is missing without a v=spf1 record', () => {
    expect(evaluateSpf([], OURS)).toEqual({ status: 'missing', found: null });
    expect(evaluateSpf(['v=spf10 nonsense', 'hello'], OURS)).toEqual({ status: 'missing', found: null });
  });

  it('is wrong with two SPF records, showing both', () => {
    expect(evaluateSpf([spfRecordValue(OURS), 'v=spf1 include:_spf.google.com ~all'], OURS)).toEqual({
      status: 'wrong',
      found: `${spfRecordValue(OURS)}\nv=spf1 include:_spf.google.com ~all`,
    });
  });

  it('is wrong without our mechanism, with a failing qualifier on it, or when malformed', () => {
    expect(evaluateSpf(['v=spf1 include:_spf.google.com ~all'], OURS)).toEqual({
      status: 'wrong',
      found: 'v=spf1 include:_spf.google.com ~all',
    });
    expect(evaluateSpf([`v=spf1 -${OURS} ~all`], OURS).status).toBe('wrong');
    expect(evaluateSpf([`v=spf1 ${OURS} ~al`], OURS).status).toBe('wrong');
    expect(evaluateSpf(['v=spf1 ip4:203.0.113.5 redirect=_spf.example.com'], 'ip4:203.0.113.5').status).toBe(
      'verified',
    );
  });
});

describe('DKIM rules', () => {
  const key = 'MIIBIjANBgkqhkiG9w0BAQEFAAOCAQ8AMIIBCgKCAQEAx';
  it('verifies the record carrying our key, whitespace in p= ignored', () => {
    expect(evaluateDkim([dkimRecordValue(key)], key).status).toBe('verified');
    expect(evaluateDkim([`v=DKIM1; k=rsa; p=${key.slice(0, 10)} ${key.slice(10)}`], key).status).toBe('verified');
    expect(evaluateDkim([`k=rsa;p=${key}`], key).status).toBe('verified');
  });
  it('is missing with no record and wrong with another key or an empty (revoked) one', () => {
    expect(evaluateDkim([], key)).toEqual({ status: 'missing', found: null });
    expect(evaluateDkim([dkimRecordValue('OTHER')], key)).toEqual({ status: 'wrong', found: dkimRecordValue('OTHER') });
    expect(evaluateDkim(['v=DKIM1; p='], key).status).toBe('wrong');
    expect(evaluateDkim([`v=DKIM1; k=ed25519; p=${key}`], key).status).toBe('wrong');
  });
});

describe('DMARC rules', () => {
  it('verifies p=none, quarantine or reject', () => {
    expect(evaluateDmarc([dmarcRecordValue('example.com')]).status).toBe('verified');
    expect(evaluateDmarc(['v=DMARC1;p=quarantine;pct=50']).status).toBe('verified');
    expect(evaluateDmarc(['v=DMARC1; p=REJECT']).status).toBe('verified');
  });
  it('is missing with nothing there, wrong otherwise', () => {
    expect(evaluateDmarc([])).toEqual({ status: 'missing', found: null });
    expect(evaluateDmarc(['v=DMARC1; rua=mailto:x@example.com'])).toEqual({
      status: 'wrong',
      found: 'v=DMARC1; rua=mailto:x@example.com',
    });
    expect(evaluateDmarc(['v=DMARC1; p=monitor']).status).toBe('wrong');
    expect(evaluateDmarc(['p=none; v=DMARC1']).status).toBe('wrong');
    expect(evaluateDmarc(['v=DMARC1; p=none', 'v=DMARC1; p=reject']).status).toBe('wrong');
  });
});

describe('records and notes', () => {
  it('builds the values to publish', () => {
    expect(spfRecordValue(OURS)).toBe('v=spf1 include:_spf.sendwell.test ~all');
    expect(dkimRecordValue('KEY')).toBe('v=DKIM1; k=rsa; p=KEY');
    expect(dmarcRecordValue('example.com')).toBe('v=DMARC1; p=none; rua=mailto:dmarc@example.com');
    expect(parseTags('v=DKIM1; k=rsa; p=A=B')).toEqual(
      new Map([
        ['v', 'DKIM1'],
        ['k', 'rsa'],
        ['p', 'A=B'],
      ]),
    );
  });
  it('explains a missing or wrong record', () => {
    expect(recordNote('spf', 'verified', null, OURS)).toBeNull();
    expect(recordNote('dkim', 'missing', null, OURS)).toMatch(/24-48 hours/);
    expect(recordNote('spf', 'wrong', 'v=spf1 a ~all\nv=spf1 mx ~all', OURS)).toMatch(/Found 2 SPF records/);
    expect(recordNote('spf', 'wrong', 'v=spf1 a ~all', OURS)).toBe(`The SPF record must include ${OURS}.`);
  });
});
