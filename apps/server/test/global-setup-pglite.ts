import type { TestProject } from 'vitest/node';
import { makePgliteTemplate } from './database-templates.ts';
// The provided values' types (vitest's ProvidedContext) are declared there.
import type {} from './test-database.ts';

/** int-pglite: one migrated PGlite data directory for every file of the run to start from. */
export default async function setup(project: TestProject): Promise<() => void> {
  const template = await makePgliteTemplate();
  project.provide('pgliteTemplateFile', template.file);
  project.provide('postgresTemplate', '');
  return template.remove;
}
