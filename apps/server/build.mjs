// Bundles the server (and the pure rules of @invoicebox/core) into dist/ with esbuild;
// npm dependencies stay external and load from node_modules at run time.
import { build } from 'tsup';

await build({
  entry: { cli: 'src/cli/main.ts' },
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
