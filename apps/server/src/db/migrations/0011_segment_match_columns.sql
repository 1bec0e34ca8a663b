-- One ALTER, so an existing contacts table is rewritten once, not six times.
ALTER TABLE "contacts"
  ADD COLUMN "first_name_lower" text GENERATED ALWAYS AS (lower(first_name)) STORED,
  ADD COLUMN "last_name_lower" text GENERATED ALWAYS AS (lower(last_name)) STORED,
  ADD COLUMN "company_lower" text GENERATED ALWAYS AS (lower(coalesce(company, ''))) STORED,
  ADD COLUMN "job_title_lower" text GENERATED ALWAYS AS (lower(coalesce(job_title, ''))) STORED,
  ADD COLUMN "location_lower" text GENERATED ALWAYS AS (lower(coalesce(location, ''))) STORED,
  ADD COLUMN "tags_lower" text GENERATED ALWAYS AS (' ' || lower(array_to_tsvector(array_remove(array_remove(tags, NULL), ''))::text) || ' ') STORED;
