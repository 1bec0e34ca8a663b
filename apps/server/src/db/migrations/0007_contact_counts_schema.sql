-- Statement-level triggers keep contact_counts exact on every write path (API, import, bulk
-- delete, unsubscribe) in the same transaction, so the totals never drift.
INSERT INTO "contact_counts" ("user_id", "total", "active")
SELECT "user_id", count(*), count(*) FILTER (WHERE "is_active") FROM "contacts" GROUP BY "user_id";
--> statement-breakpoint
CREATE FUNCTION "contact_counts_after_insert"() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
  INSERT INTO contact_counts (user_id, total, active)
  SELECT user_id, count(*), count(*) FILTER (WHERE is_active) FROM new_rows GROUP BY user_id
  ON CONFLICT (user_id) DO UPDATE SET total = contact_counts.total + excluded.total, active = contact_counts.active + excluded.active;
  RETURN NULL;
END $$;
--> statement-breakpoint
CREATE FUNCTION "contact_counts_after_delete"() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
  UPDATE contact_counts c SET total = c.total - d.n, active = c.active - d.a
  FROM (SELECT user_id, count(*) AS n, count(*) FILTER (WHERE is_active) AS a FROM old_rows GROUP BY user_id) d
  WHERE c.user_id = d.user_id;
  RETURN NULL;
END $$;
--> statement-breakpoint
CREATE FUNCTION "contact_counts_after_update"() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
  UPDATE contact_counts c SET active = c.active + d.delta
  FROM (
    SELECT n.user_id, sum(n.is_active::int - o.is_active::int) AS delta
    FROM new_rows n JOIN old_rows o ON o.id = n.id
    WHERE n.is_active IS DISTINCT FROM o.is_active
    GROUP BY n.user_id
  ) d
  WHERE c.user_id = d.user_id AND d.delta <> 0;
  RETURN NULL;
END $$;
--> statement-breakpoint
CREATE TRIGGER "contact_counts_insert" AFTER INSERT ON "contacts" REFERENCING NEW TABLE AS new_rows FOR EACH STATEMENT EXECUTE FUNCTION "contact_counts_after_insert"();
--> statement-breakpoint
CREATE TRIGGER "contact_counts_delete" AFTER DELETE ON "contacts" REFERENCING OLD TABLE AS old_rows FOR EACH STATEMENT EXECUTE FUNCTION "contact_counts_after_delete"();
--> statement-breakpoint
CREATE TRIGGER "contact_counts_update" AFTER UPDATE ON "contacts" REFERENCING OLD TABLE AS old_rows NEW TABLE AS new_rows FOR EACH STATEMENT EXECUTE FUNCTION "contact_counts_after_update"();
