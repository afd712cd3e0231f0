// Bundles the server (and the pure rules of @invoicebox/core) into dist/ with esbuild;
// npm dependencies stay external and load from node_modules at run time.
import fs from 'node:fs/promises';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { build as esbuild } from 'esbuild';
import { build } from 'tsup';

const here = path.dirname(fileURLToPath(import.meta.url));

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

/**
 * pdf.js with the PDF text worker's patches applied, written once here into dist/ (writeTextPdfjs in
 * src/extraction/pdf/pdf.isolate.ts) so that no worker has to patch and load 1.6 MB from a data: URL when it starts.
 * Bundled to a temporary file beside dist, like the generator below, run and removed.
 */
const patcher = path.join(here, 'dist', '.pdfjs-text.mjs');
try {
  await esbuild({
    entryPoints: [path.join(here, 'src', 'extraction', 'pdf', 'pdf.isolate.ts')],
    outfile: patcher,
    bundle: true,
    platform: 'node',
    format: 'esm',
    target: 'node20',
    packages: 'external',
    logLevel: 'silent',
  });
  const { writeTextPdfjs } = await import(patcher);
  if (!writeTextPdfjs(path.join(here, 'dist')))
    console.warn('pdf.js: no text patch applies; workers read with stock pdf.js');
} catch (error) {
  // Not fatal: the workers then patch pdf.js when they start, as they do when running from the sources.
  console.warn(`The patched pdf.js was not written (${error instanceof Error ? error.message : error})`);
} finally {
  await fs.rm(patcher, { force: true });
}

/**
 * "Try it with sample data": the sample mailbox and bank statement are generated here, from the evaluation's
 * generators (eval/sample-data.generator.ts), into dist/sample/, so no binary is committed. The generator is bundled
 * to a temporary file beside dist (its dev dependencies, pdf-lib and the canvas, resolve from node_modules), run and
 * removed. Without them (a production-only install) the server says that sample data is not available.
 */
const generator = path.join(here, 'dist', '.sample-generator.mjs');
try {
  await esbuild({
    entryPoints: [path.join(here, 'eval', 'sample-data.generator.ts')],
    outfile: generator,
    bundle: true,
    platform: 'node',
    format: 'esm',
    target: 'node20',
    packages: 'external',
    logLevel: 'silent',
  });
  const { writeSampleData } = await import(generator);
  await writeSampleData(path.join(here, 'dist', 'sample'));
} catch (error) {
  console.warn(`Sample data was not generated (${error instanceof Error ? error.message : error})`);
} finally {
  await fs.rm(generator, { force: true });
}
