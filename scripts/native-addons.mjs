// Loads every native addon under node_modules in the running Node and fails on one built for another Node ABI.
// Ours are all N-API prebuilds (ABI-stable across Node versions); this catches a node-gyp addon added later, which
// would load on the machine's Node 20 and break on 24 (fix: prefer an N-API package, or `npm rebuild` it for 24).
import { readdirSync } from 'node:fs';
import { createRequire } from 'node:module';
import path from 'node:path';

const require = createRequire(import.meta.url);
const root = path.resolve(import.meta.dirname, '..');
const found = [];
function walk(dir) {
  for (const entry of readdirSync(dir, { withFileTypes: true })) {
    const full = path.join(dir, entry.name);
    if (entry.isDirectory() && !entry.isSymbolicLink()) walk(full);
    else if (entry.isFile() && entry.name.endsWith('.node')) found.push(full);
  }
}
// The root's node_modules and the workspaces' own (a dependency version that could not be hoisted).
for (const base of ['.', 'apps', 'packages']) {
  const dirs = base === '.' ? ['.'] : readdirSync(path.join(root, base)).map((name) => path.join(base, name));
  for (const dir of dirs) {
    try {
      walk(path.join(root, dir, 'node_modules'));
    } catch (error) {
      if (error?.code !== 'ENOENT' && error?.code !== 'ENOTDIR') throw error;
    }
  }
}

let broken = 0;
for (const file of found) {
  const name = path.relative(root, file);
  try {
    require(file);
    console.log(`native addon ok on Node ${process.versions.node}: ${name}`);
  } catch (error) {
    const message = String(error?.message ?? error).split('\n')[0];
    // Another ABI says so in one of these ways; anything else (a missing system library) is not Node's version.
    if (/NODE_MODULE_VERSION|undefined symbol: (node_|napi_|_ZN2v8)/.test(message)) {
      broken++;
      console.error(`native addon built for another Node ABI: ${name}: ${message}`);
    } else console.warn(`native addon did not load (not an ABI mismatch): ${name}: ${message}`);
  }
}
if (broken) process.exit(1);
