import { describe, expect, it } from 'vitest';
import { returnPathFor } from './return-path.ts';

describe('returnPathFor (the envelope sender is never the From address)', () => {
  it('is bounces@ the signing domain for mail signed by a verified domain', () => {
    expect(returnPathFor({ signingDomain: 'acme.example', installationDomain: 'mail.sendwell.test' })).toBe(
      'bounces@acme.example',
    );
  });

  it('is bounces@ the installation domain for everything else', () => {
    expect(returnPathFor({ signingDomain: null, installationDomain: 'mail.sendwell.test' })).toBe(
      'bounces@mail.sendwell.test',
    );
  });
});

describe('returnPathFor with a per-message (VERP) local part', () => {
  it('goes to BOUNCE_DOMAIN when set, else to the signing or installation domain', () => {
    const verpLocalPart = 'bounces+s1-00112233445566aa';
    expect(
      returnPathFor({
        signingDomain: 'acme.example',
        installationDomain: 'mail.sendwell.test',
        verpLocalPart,
        bounceDomain: 'bounces.sendwell.test',
      }),
    ).toBe(`${verpLocalPart}@bounces.sendwell.test`);
    expect(
      returnPathFor({ signingDomain: 'acme.example', installationDomain: 'mail.sendwell.test', verpLocalPart }),
    ).toBe(`${verpLocalPart}@acme.example`);
    expect(returnPathFor({ signingDomain: null, installationDomain: 'mail.sendwell.test', verpLocalPart })).toBe(
      `${verpLocalPart}@mail.sendwell.test`,
    );
  });
});
