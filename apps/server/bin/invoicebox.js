#!/usr/bin/env node
// The `invoicebox` command. The TypeScript sources are bundled into dist/ by `npm run build`
// (run by `npm install` through the root `prepare` script).
import { existsSync } from 'node:fs';
import { fileURLToPath } from 'node:url';

const entry = new URL('../dist/cli.js', import.meta.url);
if (!existsSync(fileURLToPath(entry))) {
  console.error('invoicebox: the server is not built yet; run `npm run build` in the repository root first.');
  process.exit(1);
}
await import(entry.href);
