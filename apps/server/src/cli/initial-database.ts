import { initialDatabaseFile, writeInitialDatabase } from '../db/initial-database.ts';

// Run by the build (scripts/build-server.mjs) after the server bundle: the embedded database a first start loads.
const file = initialDatabaseFile();
await writeInitialDatabase(file);
console.log(`Wrote the initial embedded database (${file}).`);
