// The server's house rules on imports, checked by ESLint (see STYLE.md): routes parse and reply,
// services decide, repos alone touch tables (no file but a *.repo.ts or one under db/ imports db/schema);
// plugins never import modules; code outside a module imports it only through its face,
// modules/<name>/index.ts, which hands out no repo function; the delivery engine imports no other
// module; modules import each other one way.
// Test files (*.test.ts) are not checked, nor apps/server/test or bench: they set up and observe
// state that no face offers (a module's ledger, its jobs' definitions), and take the rest from the
// faces. modules/README.md has the picture these rules keep (scripts/module-graph.mjs draws it).
import { readdirSync, readFileSync } from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';

const root = path.dirname(path.dirname(fileURLToPath(import.meta.url)));
const serverSrc = path.join(root, 'apps/server/src');
const modulesDir = path.join(serverSrc, 'modules');
const dbDir = path.join(serverSrc, 'db');
const schemaDir = path.join(dbDir, 'schema');

const isTest = (file) => /\.test\.ts$/.test(file);
/** Files that may import the table definitions: repos, and db/ itself (client, migrations, ledgers). */
const mayTouchTables = (file) => /\.repo\.ts$/.test(file) || file.startsWith(dbDir + path.sep);
const moduleOf = (file) => {
  const relative = path.relative(modulesDir, file);
  return relative.startsWith('..') ? null : relative.split(path.sep)[0];
};
const resolveImport = (fromFile, source) =>
  source.startsWith('.') ? path.resolve(path.dirname(fromFile), source) : null;

/** Which modules each module imports (non-test files), read once per lint run. */
let moduleGraph = null;
function graph() {
  if (moduleGraph) return moduleGraph;
  moduleGraph = new Map();
  for (const entry of readdirSync(modulesDir, { withFileTypes: true })) {
    if (!entry.isDirectory()) continue;
    const name = entry.name;
    const edges = new Set();
    const walk = (dir) => {
      for (const entry of readdirSync(dir, { withFileTypes: true })) {
        const full = path.join(dir, entry.name);
        if (entry.isDirectory()) walk(full);
        else if (entry.name.endsWith('.ts') && !isTest(entry.name)) {
          const text = readFileSync(full, 'utf8');
          for (const match of text.matchAll(/(?:import|export)[^'"]*?from\s+'([^']+)'/g)) {
            const target = resolveImport(full, match[1]);
            const other = target && moduleOf(target);
            if (other && other !== name) edges.add(other);
          }
        }
      }
    };
    walk(path.join(modulesDir, name));
    moduleGraph.set(name, edges);
  }
  return moduleGraph;
}
function reaches(from, to, seen = new Set()) {
  if (from === to) return true;
  if (seen.has(from)) return false;
  seen.add(from);
  for (const next of graph().get(from) ?? []) if (reaches(next, to, seen)) return true;
  return false;
}

const boundaries = {
  meta: {
    type: 'problem',
    docs: { description: "the server's import boundaries" },
    messages: {
      tables: 'Only repos (*.repo.ts) and db/ import table definitions: move the query into the module’s repo.',
      plugins: 'Plugins never import modules.',
      repo: 'No module imports another module’s repo: use its service.',
      deep: 'Import the {{module}} module only through its face, modules/{{module}}/index.ts.',
      faceRepo: 'A module’s face hands out no repo function: export a service function that calls it.',
      delivery: 'The delivery engine imports no other module.',
      cycle: 'Modules import each other one way only: {{target}} already imports {{source}}.',
    },
    schema: [],
  },
  create(context) {
    const file = context.filename;
    if (!file.startsWith(serverSrc) || isTest(file)) return {};
    const fromModule = moduleOf(file);
    const base = path.basename(file);
    const check = (node, source) => {
      const target = resolveImport(file, source);
      if (!target) return;
      const targetModule = moduleOf(target);
      if (targetModule && targetModule !== fromModule && target !== path.join(modulesDir, targetModule, 'index.ts'))
        context.report({ node, messageId: 'deep', data: { module: targetModule } });
      if (
        base === 'index.ts' &&
        fromModule &&
        targetModule === fromModule &&
        /\.repo(\.ts)?$/.test(target) &&
        node.type !== 'ImportDeclaration' &&
        node.exportKind !== 'type' &&
        (node.specifiers ?? [{}]).some((specifier) => specifier.exportKind !== 'type')
      )
        context.report({ node, messageId: 'faceRepo' });
      if (!mayTouchTables(file) && (target === schemaDir || target.startsWith(schemaDir + path.sep)))
        context.report({ node, messageId: 'tables' });
      if (file.startsWith(path.join(serverSrc, 'plugins')) && targetModule)
        context.report({ node, messageId: 'plugins' });
      if (!fromModule || !targetModule || targetModule === fromModule) return;
      if (/\.repo(\.ts)?$/.test(target)) context.report({ node, messageId: 'repo' });
      if (fromModule === 'delivery') context.report({ node, messageId: 'delivery' });
      else if (reaches(targetModule, fromModule)) {
        context.report({ node, messageId: 'cycle', data: { source: fromModule, target: targetModule } });
      }
    };
    return {
      ImportDeclaration: (node) => check(node, node.source.value),
      ExportNamedDeclaration: (node) => node.source && check(node, node.source.value),
      ExportAllDeclaration: (node) => check(node, node.source.value),
    };
  },
};

export default { rules: { boundaries } };
