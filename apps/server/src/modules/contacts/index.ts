// The contacts module's public face: what other modules, app.ts, jobs.ts, main.ts, app-context.ts and cli/ use
// of it. Code outside the module imports only from here (eslint-rules/server-boundaries.js).
export { csvCandidateRows, MAX_IMPORT_BYTES, type CsvSource } from './contacts.import.ts';
export { contactRoutes } from './contacts.routes.ts';
export { saveContactToList, toContact } from './contacts.service.ts';
