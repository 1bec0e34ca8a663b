import { describe, expect, it } from 'vitest';
import { emailBlockSchema } from '@sendwell/contract/campaigns';
import type { UserRow } from '../auth/index.ts';
import type { CampaignRow } from './campaigns.repo.ts';
import { compiledCacheSize, compiledFor } from './campaign-batch.ts';

const user = { firstName: 'Ada', lastName: 'L', company: 'Acme', postalAddress: '1 Main St' } as UserRow;
const campaign = (subject: string, updatedAt = new Date()) =>
  ({
    subject,
    blocks: [emailBlockSchema.parse({ id: 'b1', type: 'text', content: { text: 'Hi {{firstName}}', tag: 'p' } })],
    contentHtml: '',
    updatedAt,
  }) as unknown as CampaignRow;

describe('the compiled-email cache', () => {
  it('hits for the same content whatever the row’s updatedAt, misses for changed content, and stays bounded', () => {
    const first = compiledFor(campaign('Hello'), user, 'http://x');
    expect(compiledFor(campaign('Hello', new Date(Date.now() + 5000)), user, 'http://x')).toBe(first);
    expect(compiledFor(campaign('Hello again'), user, 'http://x')).not.toBe(first);
    for (let i = 0; i < 100; i += 1) compiledFor(campaign(`Subject ${i}`), user, 'http://x');
    expect(compiledCacheSize()).toBeLessThanOrEqual(32);
  });
});
