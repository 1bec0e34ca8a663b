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
