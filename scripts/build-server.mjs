// The server as one ES module (apps/server/src/main.ts and the contract bundled; packages from
// node_modules stay imports), built by esbuild in well under a second. Node starts it without tsx's
// loader hooks: an import of the app cost 3.4–3.7 CPU-s through tsx and 1.8–2.0 CPU-s bundled (Node 20,
// the 2-core machine), and that is paid at every start of the kill, restart and start-up tests.
// Each module keeps its own import.meta.url (the migrations folder, the web build and package.json
// look-ups are found from it), so the bundle runs as the sources do, from wherever it is written.
import { readFile } from 'node:fs/promises';
import { readFileSync } from 'node:fs';
import path from 'node:path';
import { fileURLToPath, pathToFileURL } from 'node:url';
import { build } from 'esbuild';

const root = path.dirname(path.dirname(fileURLToPath(import.meta.url)));

/** Every package the server and the contract may import at run time: left to node_modules. */
function runtimePackages() {
  const names = new Set();
  for (const manifest of ['apps/server/package.json', 'packages/contract/package.json']) {
    const { dependencies = {} } = JSON.parse(readFileSync(path.join(root, manifest), 'utf8'));
    for (const name of Object.keys(dependencies)) names.add(name);
  }
  return [...names];
}

/** Rewrites import.meta.url and import.meta.dirname in each source file to that file's own. */
const ownImportMeta = {
  name: 'own-import-meta',
  setup(builder) {
    builder.onLoad({ filter: /\.ts$/ }, async (args) => {
      const source = await readFile(args.path, 'utf8');
      if (!source.includes('import.meta.')) return undefined;
      return {
        contents: source
          .replaceAll('import.meta.url', JSON.stringify(pathToFileURL(args.path).href))
          .replaceAll('import.meta.dirname', JSON.stringify(path.dirname(args.path))),
        loader: 'ts',
      };
    });
  },
};

/** Writes the server bundle to `outfile` (an .mjs path); answers when it is written. */
export async function buildServer(outfile) {
  await build({
    entryPoints: [path.join(root, 'apps/server/src/main.ts')],
    outfile,
    bundle: true,
    platform: 'node',
    format: 'esm',
    target: 'node20',
    external: runtimePackages(),
    plugins: [ownImportMeta],
    logLevel: 'warning',
  });
}
