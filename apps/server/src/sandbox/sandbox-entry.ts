import { existsSync, readFileSync } from 'node:fs';
import { mkdir, rename } from 'node:fs/promises';
import path from 'node:path';
import { fileURLToPath, pathToFileURL } from 'node:url';

/**
 * Where a sandbox child's code is, for a caller at `caller` (its import.meta.url) whose child entry is `sourcePath`. In the built server it is a bundle beside the caller in dist/ (tsup entry
 * `<name>`). Running from the TypeScript sources (tests, development), the child is bundled here on first use with
 * esbuild into `<server package>/.tmp/sandbox/`: the child then runs plain JavaScript under the same permission
 * model as in production (a TypeScript loader would need to start esbuild's process, which the sandbox forbids).
 */
export async function sandboxEntry(
  caller: string,
  sourcePath: string,
  distName: string,
): Promise<{ entry: URL; packageDir: string }> {
  const callerFile = fileURLToPath(caller);
  const packageDir = findPackageDir(path.dirname(callerFile));
  if (!callerFile.endsWith('.ts')) return { entry: new URL(`./${distName}.js`, caller), packageDir };
  const file = fileURLToPath(new URL(sourcePath, caller));
  const outDir = path.join(packageDir, '.tmp', 'sandbox');
  const outFile = path.join(outDir, `${distName}.mjs`);
  compiled[outFile] ??= compile(file, outDir, outFile, packageDir);
  await compiled[outFile];
  return { entry: pathToFileURL(outFile), packageDir };
}

const compiled: Record<string, Promise<void>> = {};

async function compile(file: string, outDir: string, outFile: string, packageDir: string): Promise<void> {
  const { build } = await import('esbuild');
  const pkg = JSON.parse(readFileSync(path.join(packageDir, 'package.json'), 'utf8')) as {
    dependencies?: Record<string, string>;
  };
  // npm dependencies load from node_modules at run time, as in the tsup bundle; the workspace's own TypeScript
  // packages are bundled in.
  const external = Object.keys(pkg.dependencies ?? {})
    .filter((name) => !name.startsWith('@invoicebox/'))
    .flatMap((name) => [name, `${name}/*`]);
  await mkdir(outDir, { recursive: true });
  // Several test processes may compile at once: each writes its own file and renames it into place.
  const temp = `${outFile}.${process.pid}.${Date.now()}.tmp.mjs`;
  await build({
    entryPoints: [file],
    outfile: temp,
    bundle: true,
    platform: 'node',
    format: 'esm',
    target: 'node20',
    external,
    logLevel: 'silent',
    // CommonJS dependencies bundled into ESM call require(): give the bundle one.
    banner: { js: "import { createRequire as __cr } from 'node:module'; const require = __cr(import.meta.url);" },
  });
  await rename(temp, outFile);
}

function findPackageDir(start: string): string {
  for (let dir = start; ; dir = path.dirname(dir)) {
    if (existsSync(path.join(dir, 'package.json'))) return dir;
    if (path.dirname(dir) === dir) return start;
  }
}
