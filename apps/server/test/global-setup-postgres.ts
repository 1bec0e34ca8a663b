import type { TestProject } from 'vitest/node';
import { makePostgresTemplate } from './database-templates.ts';
import { nameUnhandledPgErrors } from './pg-error-origins.ts';
import { makeServerBundle } from './server-process.ts';
import { TEST_DATABASE_URL } from './test-database.ts';

/** int-postgres: one migrated template database for every file of the run to copy, and the server bundle. */
export default async function setup(project: TestProject): Promise<() => Promise<void>> {
  nameUnhandledPgErrors(() => 'the int-postgres global set-up (main process)');
  const [template, bundle] = await Promise.all([makePostgresTemplate(TEST_DATABASE_URL), makeServerBundle()]);
  project.provide('postgresTemplate', template.name);
  project.provide('pgliteTemplateFile', '');
  project.provide('serverBundle', bundle.file);
  return async () => {
    bundle.remove();
    await template.drop();
  };
}
