// The server's module picture, drawn from the real imports: which module uses which (non-test files;
// `import type` counts, as in the lint rule's one-way check), what outside the modules uses each one,
// how many imports reach past a module's face (modules/<name>/index.ts), and the cycles among the
// server's files (runtime imports: `import type` is erased).
//   node scripts/module-graph.mjs           prints the table and the counts
//   node scripts/module-graph.mjs --write   puts the table into apps/server/src/modules/README.md
//   node scripts/module-graph.mjs --check   fails when the README's table is not the one the imports
//                                           draw, when non-test code imports past a face, or on a
//                                           file cycle
// (apps/server/src/module-graph.test.ts runs --check with the unit tests.)
import { readdirSync, readFileSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';

const root = path.dirname(path.dirname(fileURLToPath(import.meta.url)));
const serverSrc = path.join(root, 'apps/server/src');
const modulesDir = path.join(serverSrc, 'modules');
const readme = path.join(modulesDir, 'README.md');
const START = '<!-- module-graph:start (scripts/module-graph.mjs --write) -->';
const END = '<!-- module-graph:end -->';

const tsFiles = (dir) =>
  readdirSync(dir, { withFileTypes: true }).flatMap((entry) => {
    const full = path.join(dir, entry.name);
    if (entry.isDirectory()) return entry.name === 'node_modules' ? [] : tsFiles(full);
    return entry.name.endsWith('.ts') ? [full] : [];
  });
const moduleOf = (file) => {
  const relative = path.relative(modulesDir, file);
  return relative.startsWith('..') || !relative.includes(path.sep) ? null : relative.split(path.sep)[0];
};
const isTest = (file) => file.endsWith('.test.ts');

const modules = readdirSync(modulesDir, { withFileTypes: true })
  .filter((entry) => entry.isDirectory())
  .map((entry) => entry.name)
  .sort();
const uses = new Map(modules.map((name) => [name, new Set()]));
const usedFromOutside = new Map(modules.map((name) => [name, new Set()]));
const deep = { code: [], tests: [] };

const files = [
  ...tsFiles(serverSrc),
  ...tsFiles(path.join(root, 'apps/server/test')),
  ...tsFiles(path.join(root, 'bench')),
];
for (const file of files) {
  const from = moduleOf(file);
  const code = file.startsWith(serverSrc) && !isTest(file);
  for (const match of readFileSync(file, 'utf8').matchAll(/(?:import|export)[^'"]*?from\s+'(\.[^']*)'/g)) {
    const target = path.resolve(path.dirname(file), match[1]);
    const to = moduleOf(target);
    if (!to || to === from) continue;
    if (target !== path.join(modulesDir, to, 'index.ts'))
      (code ? deep.code : deep.tests).push(`${path.relative(root, file)} -> ${path.relative(modulesDir, target)}`);
    if (!code) continue;
    if (from) uses.get(from).add(to);
    else usedFromOutside.get(to).add(path.relative(serverSrc, file));
  }
}

/** Groups of the server's non-test files that import each other in a ring (Tarjan's strongly connected components). */
function fileCycles() {
  const sources = tsFiles(serverSrc).filter((file) => !isTest(file));
  const edges = new Map(
    sources.map((file) => [
      file,
      [...readFileSync(file, 'utf8').matchAll(/^\s*(?:import|export)(?!\s+type\b)[^'";]*?from\s+'(\.[^']*)'/gm)].map(
        (match) => path.resolve(path.dirname(file), match[1]),
      ),
    ]),
  );
  const index = new Map();
  const low = new Map();
  const stack = [];
  const groups = [];
  const visit = (file) => {
    index.set(file, index.size);
    low.set(file, index.get(file));
    stack.push(file);
    for (const next of edges.get(file) ?? []) {
      if (!edges.has(next)) continue;
      if (!index.has(next)) {
        visit(next);
        low.set(file, Math.min(low.get(file), low.get(next)));
      } else if (stack.includes(next)) low.set(file, Math.min(low.get(file), index.get(next)));
    }
    if (low.get(file) !== index.get(file)) return;
    const group = stack.splice(stack.indexOf(file));
    if (group.length > 1) groups.push(group.map((member) => path.relative(serverSrc, member)));
  };
  for (const file of sources) if (!index.has(file)) visit(file);
  return groups;
}
const cycles = fileCycles();

/** 0: uses no other module; otherwise one more than the highest level it uses (modules use each other one way). */
const levels = new Map();
const levelOf = (name, chain = []) => {
  if (chain.includes(name)) throw new Error(`module cycle: ${[...chain, name].join(' -> ')}`);
  if (!levels.has(name))
    levels.set(name, Math.max(-1, ...[...uses.get(name)].map((next) => levelOf(next, [...chain, name]))) + 1);
  return levels.get(name);
};

const list = (names) => [...names].sort().join(', ') || '—';
const usedBy = (name) => modules.filter((other) => uses.get(other).has(name));
const table = [
  '| module | level | uses (through their faces) | used by |',
  '| --- | --- | --- | --- |',
  ...modules.map(
    (name) =>
      `| ${name} | ${levelOf(name)} | ${list(uses.get(name))} | ${list([...usedBy(name), ...usedFromOutside.get(name)])} |`,
  ),
].join('\n');
const section = `${START}\n${table}\n${END}`;

const counts = [
  `deep imports from non-test code: ${deep.code.length}`,
  `deep imports from tests, test helpers and benches (allowed): ${deep.tests.length}`,
  `file cycles among the server's non-test files: ${cycles.length}`,
  ...cycles.map((group) => `  ${group.join(' <-> ')}`),
];

const argument = process.argv[2];
if (argument === '--write') {
  const text = readFileSync(readme, 'utf8');
  const start = text.indexOf(START);
  const end = text.indexOf(END);
  if (start === -1 || end === -1) throw new Error(`${readme} has no ${START} … ${END} markers`);
  writeFileSync(readme, text.slice(0, start) + section + text.slice(end + END.length));
} else if (argument === '--check') {
  const problems = [];
  if (!readFileSync(readme, 'utf8').includes(section))
    problems.push(
      `${path.relative(root, readme)}'s table is not the one the imports draw; run node scripts/module-graph.mjs --write:\n${section}`,
    );
  if (deep.code.length > 0) problems.push(`imports past a module's face:\n  ${deep.code.join('\n  ')}`);
  if (cycles.length > 0) problems.push(`file cycles:\n  ${cycles.map((group) => group.join(' <-> ')).join('\n  ')}`);
  if (problems.length > 0) {
    console.error(problems.join('\n'));
    process.exit(1);
  }
} else {
  console.log(table);
  console.log();
}
console.log(counts.join('\n'));
