// Bundles the server (and the pure rules of @invoicebox/core) into dist/ with esbuild;
// npm dependencies stay external and load from node_modules at run time.
import { build } from 'tsup';

await build({
  // The document sandbox's child processes run their own entry (see src/sandbox/sandbox-entry.ts).
  entry: { cli: 'src/cli/main.ts', 'document-child': 'src/sandbox/document.child.ts' },
  outDir: 'dist',
  format: ['esm'],
  platform: 'node',
  target: 'node20',
  sourcemap: true,
  clean: true,
  splitting: true,
  skipNodeModulesBundle: true,
  noExternal: ['@invoicebox/core'],
  silent: true,
});
