ALTER TABLE "contact_list_members" DROP CONSTRAINT "contact_list_members_list_id_contact_lists_id_fk";
--> statement-breakpoint
ALTER TABLE "contact_list_members" DROP CONSTRAINT "contact_list_members_contact_id_contacts_id_fk";
--> statement-breakpoint
ALTER TABLE "contacts" DROP CONSTRAINT "contacts_user_id_users_id_fk";
--> statement-breakpoint
-- contacts.user_id → users.id and contact_list_members.(list_id, contact_id) → contact_lists.id,
-- contacts.id behave like ON DELETE CASCADE foreign keys, enforced once per statement: a foreign
-- key runs a query and takes a lock for each inserted row, a third of a million-row import's
-- database time. The check locks (FOR KEY SHARE, as a foreign key does) only parents this
-- transaction did not write itself: rows it inserted or updated are invisible or locked to every
-- other transaction until it commits, so nobody can delete them under it.
CREATE FUNCTION "require_parent_rows"() RETURNS trigger LANGUAGE plpgsql AS $$
DECLARE
  child_column text := TG_ARGV[0];
  parent_table text := TG_ARGV[1];
  missing bigint;
  others bigint;
  locked bigint;
BEGIN
  EXECUTE format(
    'SELECT count(*) FILTER (WHERE p.id IS NULL), count(*) FILTER (WHERE p.xmin <> pg_current_xact_id()::xid)
     FROM (SELECT DISTINCT %1$I AS id FROM new_rows WHERE %1$I IS NOT NULL) w LEFT JOIN %2$I p ON p.id = w.id',
    child_column, parent_table) INTO missing, others;
  IF missing = 0 AND others > 0 THEN
    -- A parent deleted by a transaction still running is waited for; once that commits, the lock
    -- finds nothing and the count comes up short.
    EXECUTE format(
      'SELECT count(*) FROM (SELECT 1 FROM %2$I p WHERE p.id IN (SELECT %1$I FROM new_rows) AND p.xmin <> pg_current_xact_id()::xid FOR KEY SHARE OF p) l',
      child_column, parent_table) INTO locked;
    missing := others - locked;
  END IF;
  IF missing > 0 THEN
    RAISE foreign_key_violation USING MESSAGE = format('%s.%s refers to a row of %s that does not exist', TG_TABLE_NAME, child_column, parent_table);
  END IF;
  RETURN NULL;
END $$;
--> statement-breakpoint
CREATE FUNCTION "delete_child_rows"() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
  EXECUTE format('DELETE FROM %I WHERE %I IN (SELECT id FROM old_rows)', TG_ARGV[0], TG_ARGV[1]);
  RETURN NULL;
END $$;
--> statement-breakpoint
-- Keys the triggers rely on never change (no code changes them; this makes sure).
CREATE FUNCTION "refuse_key_change"() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
  RAISE foreign_key_violation USING MESSAGE = format('%s: %s cannot change', TG_TABLE_NAME, TG_ARGV[0]);
END $$;
--> statement-breakpoint
CREATE TRIGGER "contacts_require_user" AFTER INSERT ON "contacts" REFERENCING NEW TABLE AS new_rows FOR EACH STATEMENT EXECUTE FUNCTION "require_parent_rows"('user_id', 'users');
--> statement-breakpoint
CREATE TRIGGER "list_members_require_list" AFTER INSERT ON "contact_list_members" REFERENCING NEW TABLE AS new_rows FOR EACH STATEMENT EXECUTE FUNCTION "require_parent_rows"('list_id', 'contact_lists');
--> statement-breakpoint
CREATE TRIGGER "list_members_require_contact" AFTER INSERT ON "contact_list_members" REFERENCING NEW TABLE AS new_rows FOR EACH STATEMENT EXECUTE FUNCTION "require_parent_rows"('contact_id', 'contacts');
--> statement-breakpoint
CREATE TRIGGER "users_delete_contacts" AFTER DELETE ON "users" REFERENCING OLD TABLE AS old_rows FOR EACH STATEMENT EXECUTE FUNCTION "delete_child_rows"('contacts', 'user_id');
--> statement-breakpoint
CREATE TRIGGER "contacts_delete_list_members" AFTER DELETE ON "contacts" REFERENCING OLD TABLE AS old_rows FOR EACH STATEMENT EXECUTE FUNCTION "delete_child_rows"('contact_list_members', 'contact_id');
--> statement-breakpoint
CREATE TRIGGER "contact_lists_delete_members" AFTER DELETE ON "contact_lists" REFERENCING OLD TABLE AS old_rows FOR EACH STATEMENT EXECUTE FUNCTION "delete_child_rows"('contact_list_members', 'list_id');
--> statement-breakpoint
CREATE TRIGGER "contacts_user_id_fixed" BEFORE UPDATE OF "user_id" ON "contacts" FOR EACH ROW WHEN (OLD.user_id IS DISTINCT FROM NEW.user_id) EXECUTE FUNCTION "refuse_key_change"('user_id');
--> statement-breakpoint
CREATE TRIGGER "list_members_keys_fixed" BEFORE UPDATE OF "list_id", "contact_id" ON "contact_list_members" FOR EACH ROW WHEN ((OLD.list_id, OLD.contact_id) IS DISTINCT FROM (NEW.list_id, NEW.contact_id)) EXECUTE FUNCTION "refuse_key_change"('list_id, contact_id');
--> statement-breakpoint
CREATE TRIGGER "users_id_fixed" BEFORE UPDATE OF "id" ON "users" FOR EACH ROW WHEN (OLD.id IS DISTINCT FROM NEW.id) EXECUTE FUNCTION "refuse_key_change"('id');
--> statement-breakpoint
CREATE TRIGGER "contacts_id_fixed" BEFORE UPDATE OF "id" ON "contacts" FOR EACH ROW WHEN (OLD.id IS DISTINCT FROM NEW.id) EXECUTE FUNCTION "refuse_key_change"('id');
--> statement-breakpoint
CREATE TRIGGER "contact_lists_id_fixed" BEFORE UPDATE OF "id" ON "contact_lists" FOR EACH ROW WHEN (OLD.id IS DISTINCT FROM NEW.id) EXECUTE FUNCTION "refuse_key_change"('id');
