CREATE SEQUENCE "public"."contact_counts_version_seq" INCREMENT BY 1 MINVALUE 1 MAXVALUE 9223372036854775807 START WITH 1 CACHE 1;--> statement-breakpoint
DROP INDEX "contacts_user_created_idx";--> statement-breakpoint
ALTER TABLE "contact_counts" ADD COLUMN "version" bigint DEFAULT 0 NOT NULL;--> statement-breakpoint
CREATE INDEX "contacts_user_created_id_idx" ON "contacts" USING btree ("user_id","created_at","id");--> statement-breakpoint
-- The contact_counts triggers (0007) also give the user's row a fresh version whenever the user's
-- contacts are inserted or deleted, or a status, a searched field (see contactSearchText) or a
-- creation time changes, in the same transaction. Engagement and other updates leave it alone.
CREATE OR REPLACE FUNCTION "contact_counts_after_insert"() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
  INSERT INTO contact_counts (user_id, total, active, version)
  SELECT user_id, count(*), count(*) FILTER (WHERE is_active), nextval('contact_counts_version_seq') FROM new_rows GROUP BY user_id
  ON CONFLICT (user_id) DO UPDATE SET
    total = contact_counts.total + excluded.total,
    active = contact_counts.active + excluded.active,
    version = excluded.version;
  RETURN NULL;
END $$;
--> statement-breakpoint
CREATE OR REPLACE FUNCTION "contact_counts_after_delete"() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
  UPDATE contact_counts c SET total = c.total - d.n, active = c.active - d.a, version = nextval('contact_counts_version_seq')
  FROM (SELECT user_id, count(*) AS n, count(*) FILTER (WHERE is_active) AS a FROM old_rows GROUP BY user_id) d
  WHERE c.user_id = d.user_id;
  RETURN NULL;
END $$;
--> statement-breakpoint
CREATE OR REPLACE FUNCTION "contact_counts_after_update"() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
  -- No code moves a contact to another user, but should one, both users' results change.
  UPDATE contact_counts c SET active = c.active + d.delta, version = nextval('contact_counts_version_seq')
  FROM (
    SELECT touched.user_id, sum(touched.delta) AS delta FROM (
      SELECT n.user_id, n.is_active::int - o.is_active::int AS delta, o.user_id AS old_user_id
      FROM new_rows n JOIN old_rows o ON o.id = n.id
      WHERE (n.is_active, n.email, n.first_name, n.last_name, n.company, n.created_at, n.user_id)
            IS DISTINCT FROM (o.is_active, o.email, o.first_name, o.last_name, o.company, o.created_at, o.user_id)
    ) changed
    CROSS JOIN LATERAL (VALUES (changed.user_id, changed.delta), (changed.old_user_id, 0)) AS touched(user_id, delta)
    GROUP BY touched.user_id
  ) d
  WHERE c.user_id = d.user_id;
  RETURN NULL;
END $$;
