import { cpSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createTestDatabase } from '../../test/test-database.ts';
import { migrationsFolder, type Database } from './client.ts';

/** The shipped migrations up to (not including) `firstLeftOut`, as a folder of their own. */
function migrationsBefore(firstLeftOut: string): { folder: string; remove: () => void } {
  const folder = mkdtempSync(path.join(tmpdir(), 'sendwell-migrations-'));
  cpSync(migrationsFolder, folder, { recursive: true });
  const journalPath = path.join(folder, 'meta', '_journal.json');
  const journal = JSON.parse(readFileSync(journalPath, 'utf8')) as { entries: { tag: string }[] };
  const cut = journal.entries.findIndex((entry) => entry.tag.startsWith(firstLeftOut));
  if (cut < 0) throw new Error(`no migration ${firstLeftOut}`);
  journal.entries = journal.entries.slice(0, cut);
  writeFileSync(journalPath, JSON.stringify(journal));
  return { folder, remove: () => rmSync(folder, { recursive: true, force: true }) };
}

// 0013 moves every contact to a rebuilt table; an existing install must keep every row, count,
// reference and id.
describe('upgrading through migration 0013 (contacts rebuilt)', () => {
  let database: Database;
  let drop: () => Promise<void>;
  beforeAll(async () => {
    ({ database, drop } = await createTestDatabase({ migrate: false }));
  });
  afterAll(() => drop());
  const query = async <T = Record<string, unknown>>(text: string, params: unknown[] = []) =>
    (await database.raw.executeSql(text, params)).rows as T[];

  it('keeps contacts, their counts, list and segment memberships, references and the id sequence', async () => {
    const before = migrationsBefore('0013');
    try {
      await database.migrate(before.folder);
    } finally {
      before.remove();
    }
    const [user] = await query<{ id: string }>(
      `INSERT INTO users (email, password_hash, first_name, last_name) VALUES ('owner@example.com', 'x', 'O', 'W') RETURNING id`,
    );
    const userId = user?.id;
    await query(
      `INSERT INTO contacts (user_id, email, first_name, last_name, company, job_title, location, tags, is_active, engagement_score, total_emails_opened)
       SELECT $1, 'c' || i || '@example.com', 'First' || i, 'Last', 'Acme', 'Chief Officer', 'New York', ARRAY['VIP', 'news'], i % 2 = 0, i * 10, i
       FROM generate_series(1, 5) i`,
      [userId],
    );
    const contactsBefore = await query(`SELECT * FROM contacts ORDER BY id`);
    const [list] = await query<{ id: number }>(
      `INSERT INTO contact_lists (user_id, name, subscriber_count) VALUES ($1, 'L', 5) RETURNING id`,
      [userId],
    );
    await query(`INSERT INTO contact_list_members (list_id, contact_id) SELECT $1, id FROM contacts`, [list?.id]);
    const [segment] = await query<{ id: number }>(
      `INSERT INTO contact_segments (user_id, name, conditions) VALUES ($1, 'S', '{"operator":"AND","rules":[]}') RETURNING id`,
      [userId],
    );
    await query(`INSERT INTO contact_segment_members (segment_id, contact_id) SELECT $1, id FROM contacts`, [
      segment?.id,
    ]);
    const countsBefore = await query(`SELECT total, active, version FROM contact_counts`);

    await database.migrate();

    expect(await query(`SELECT * FROM contacts ORDER BY id`)).toEqual(
      contactsBefore.map((row) => expect.objectContaining(Object.fromEntries(Object.entries(row)))),
    );
    expect(await query(`SELECT total, active, version FROM contact_counts`)).toEqual(countsBefore);
    expect(await query(`SELECT first_name_lower, tags_lower FROM contacts ORDER BY id LIMIT 1`)).toEqual([
      { first_name_lower: 'first1', tags_lower: ` 'vip' 'news' ` },
    ]);

    // New rows continue the id sequence, and the triggers and foreign keys work on the new table.
    const [added] = await query<{ id: number }>(
      `INSERT INTO contacts (user_id, email) VALUES ($1, 'new@example.com') RETURNING id`,
      [userId],
    );
    expect(added?.id).toBeGreaterThan(Math.max(...contactsBefore.map((row) => Number(row.id))));
    expect(await query(`SELECT total, active FROM contact_counts`)).toEqual([{ total: 6, active: 3 }]);
    const firstId = Number(contactsBefore[0]?.id);
    await query(`DELETE FROM contacts WHERE id = $1`, [firstId]);
    expect(await query(`SELECT contact_id FROM contact_list_members WHERE contact_id = $1`, [firstId])).toEqual([]);
    expect(await query(`SELECT contact_id FROM contact_segment_members WHERE contact_id = $1`, [firstId])).toEqual([]);
    await expect(
      query(`INSERT INTO contact_segment_members (segment_id, contact_id) VALUES ($1, $2)`, [segment?.id, firstId]),
    ).rejects.toMatchObject({ code: '23503' });
    await expect(
      query(`INSERT INTO contacts (user_id, email) VALUES ($1, 'c2@example.com')`, [userId]),
    ).rejects.toMatchObject({ code: '23505' });
  });
});

// 0034 adds the /analytics rollups: an existing install's sent mail, events and contacts are
// counted into them by the migration, and the triggers count what arrives after it.
describe('upgrading through migration 0034 (analytics rollups)', () => {
  let database: Database;
  let drop: () => Promise<void>;
  beforeAll(async () => {
    ({ database, drop } = await createTestDatabase({ migrate: false }));
  });
  afterAll(() => drop());
  const query = async <T = Record<string, unknown>>(text: string, params: unknown[] = []) =>
    (await database.raw.executeSql(text, params)).rows as T[];

  it('backfills mail per day and domain, list growth and link clicks from the stored rows', async () => {
    const before = migrationsBefore('0034');
    try {
      await database.migrate(before.folder);
    } finally {
      before.remove();
    }
    const [user] = await query<{ id: string }>(
      `INSERT INTO users (email, password_hash, first_name, last_name) VALUES ('owner@example.com', 'x', 'O', 'W') RETURNING id`,
    );
    const userId = user?.id;
    await query(
      `INSERT INTO contacts (user_id, email, created_at)
       SELECT $1, 'c' || i || '@example.com', '2026-03-01T08:00:00Z' FROM generate_series(1, 4) i`,
      [userId],
    );
    const [campaign] = await query<{ id: number }>(
      `INSERT INTO campaigns (user_id, name, subject, from_email, status, sent_at)
       VALUES ($1, 'Old', 'Hi', 'News@Acme.Example', 'sent', '2026-03-02T10:00:00Z') RETURNING id`,
      [userId],
    );
    const [link] = await query<{ id: number }>(
      `INSERT INTO campaign_links (campaign_id, url) VALUES ($1, 'https://acme.example/a') RETURNING id`,
      [campaign?.id],
    );
    await query(
      `INSERT INTO campaign_sends (campaign_id, user_id, contact_id, email, status, sent_at)
       SELECT $1, $2, id, email, 'sent', '2026-03-02T10:00:00Z' FROM contacts WHERE user_id = $2 ORDER BY id`,
      [campaign?.id, userId],
    );
    const sends = await query<{ id: number; contact_id: number }>(
      `SELECT id, contact_id FROM campaign_sends ORDER BY id`,
    );
    const event = (i: number, type: string, extra: string) =>
      query(
        `INSERT INTO email_events (user_id, campaign_id, send_id, contact_id, type, machine, link_id, detail, created_at)
         SELECT $1, $2, $3, $4, $5, ${extra}, '2026-03-03T12:00:00Z'`,
        [userId, campaign?.id, sends[i]?.id, sends[i]?.contact_id, type],
      );
    await event(0, 'open', `false, NULL::int, NULL`);
    await event(1, 'open', `true, NULL::int, NULL`);
    await event(2, 'click', `false, ${link?.id}, NULL`);
    await event(3, 'bounce', `false, NULL::int, 'user unknown'`);

    await database.migrate();

    expect(await query(`SELECT *, day::text AS day FROM analytics_mail_daily`)).toEqual([
      {
        user_id: userId,
        day: '2026-03-02',
        domain: 'acme.example',
        sent: 4,
        opened: 2,
        machine_opened: 1,
        clicked: 1,
        bot_clicked: 0,
        bounced: 1,
        complaints: 0,
        unsubscribes: 0,
      },
    ]);
    expect(await query(`SELECT day::text, added, bounced FROM analytics_contacts_daily ORDER BY day`)).toEqual([
      { day: '2026-03-01', added: 4, bounced: 0 },
      { day: '2026-03-03', added: 0, bounced: 1 },
    ]);
    expect(await query(`SELECT day::text, url, clicks FROM analytics_link_daily`)).toEqual([
      { day: '2026-03-03', url: 'https://acme.example/a', clicks: 1 },
    ]);
  });
});
