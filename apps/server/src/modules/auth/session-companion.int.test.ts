import { sql } from 'drizzle-orm';
import { describe, expect, it } from 'vitest';
import { signUpUser, useTestApp } from '../../../test/build-app.ts';
import type { SessionCompanion } from './session-companion.ts';
import { resolveSessionAsking } from './auth.service.ts';

/** A question answered from the session's user alone: is it the expected one? */
const isExpectedUser: SessionCompanion = {
  name: 'test_is_expected_user',
  condition: (sessionUserId) => sql`${sessionUserId} = ${sql.placeholder('expectedUserId')}::uuid`,
};

function tokenOf(cookie: string | undefined): string {
  return decodeURIComponent((cookie ?? '').replace(/^sendwell_session=/, ''));
}

describe('questions asked along the session lookup', () => {
  const t = useTestApp();

  it('answers for the session’s own user in the same lookup, and nothing when nothing is asked', async () => {
    const a = await signUpUser(t());
    const b = await signUpUser(t());
    const db = t().ctx.db;
    const asked = (expectedUserId: string) => () => ({ question: isExpectedUser, values: { expectedUserId } });
    const own = await resolveSessionAsking(db, tokenOf(a.client.cookie()), asked(a.user.id));
    expect(own).toMatchObject({ signedIn: { user: { id: a.user.id } }, answer: true });
    expect(await resolveSessionAsking(db, tokenOf(a.client.cookie()), asked(b.user.id))).toMatchObject({
      signedIn: { user: { id: a.user.id } },
      answer: false,
    });
    expect(await resolveSessionAsking(db, tokenOf(b.client.cookie()), () => null)).toMatchObject({
      signedIn: { user: { id: b.user.id } },
      answer: undefined,
    });
    expect(await resolveSessionAsking(db, 'not-a-session', asked(a.user.id))).toBeNull();
  });
});
