import { spawnSync } from 'node:child_process';
import { fileURLToPath } from 'node:url';
import { buildEvalSet, buildFamilies, buildFamilyC, buildPhotos } from './eval.dataset';

/**
 * Renders the generated evaluation sets (text PDFs, scans, families) into their cache, in a child process of its own:
 * rendering goes through native code (canvas), and a crash there must cost a retry, not the evaluation run. Once
 * built, the sets are read from the cache by the parent (eval.dataset.ts returns the stored manifests).
 */
export function buildSetsIsolated(attempts = 2): boolean {
  const script = fileURLToPath(import.meta.url);
  for (let attempt = 1; attempt <= attempts; attempt++) {
    // The parent's loader flags (tsx) carry over, so the child runs this TypeScript file as the parent would.
    const r = spawnSync(process.execPath, [...process.execArgv, script, '--build'], { stdio: 'inherit' });
    if (r.status === 0) return true;
    console.log(`generated sets: the build process ended (${r.signal ?? `exit ${r.status}`}), attempt ${attempt}`);
  }
  return false;
}

if (process.argv[1] === fileURLToPath(import.meta.url) && process.argv.includes('--build')) {
  await buildEvalSet();
  await buildFamilies();
  await buildFamilyC();
  await buildPhotos();
}
