import type { TestProject } from 'vitest/node';
import { makePostgresTemplate } from './database-templates.ts';
import { TEST_DATABASE_URL } from './test-database.ts';

/** int-postgres: one migrated template database for every file of the run to copy. */
export default async function setup(project: TestProject): Promise<() => Promise<void>> {
  const template = await makePostgresTemplate(TEST_DATABASE_URL);
  project.provide('postgresTemplate', template.name);
  project.provide('pgliteTemplateFile', '');
  return template.drop;
}
