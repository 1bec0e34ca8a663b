// npm run admin: the admin commands (apps/server/src/cli/admin.ts) from their bundle, rebuilt first when
// stale as npm start does; a production-only install runs the apps/server/dist/admin.mjs it was given.
import { pathToFileURL } from 'node:url';
import { currentBundle } from './build-server.mjs';

let bundle;
try {
  bundle = await currentBundle('admin');
} catch (error) {
  console.error(error.message);
  process.exit(1);
}
// The bundle reads its command from process.argv as the script was given it: node scripts/admin.mjs <command> …
await import(pathToFileURL(bundle).href);
