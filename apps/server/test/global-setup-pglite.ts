import type { TestProject } from 'vitest/node';
import { makePgliteTemplate } from './database-templates.ts';
import { makeServerBundle } from './server-process.ts';
// The provided values' types (vitest's ProvidedContext) are declared there.
import type {} from './test-database.ts';

/** int-pglite: one migrated PGlite data directory for every file of the run to start from, and the server bundle. */
export default async function setup(project: TestProject): Promise<() => void> {
  const [template, bundle] = await Promise.all([makePgliteTemplate(), makeServerBundle()]);
  project.provide('pgliteTemplateFile', template.file);
  project.provide('postgresTemplate', '');
  project.provide('serverBundle', bundle.file);
  return () => {
    bundle.remove();
    template.remove();
  };
}
