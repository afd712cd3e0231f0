import { spawnSync } from 'node:child_process';
import { existsSync, mkdirSync, rmSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { cacheDir, imageToPdf } from './eval.dataset';
import { renderScan } from './invoice.renderers';
import type { ScanVariant } from './statement.families';
import type { GeneratedStatement } from './statement.generator';

/**
 * The statement families' scans, rendered in a child process of their own (as build-sets.ts does for the invoice
 * sets): rendering goes through native code (canvas), and a crash or a memory blow-up there must cost one family's
 * score, not the evaluation run. The child writes one PDF per statement under .tmp/statement-scans/<family>/; the
 * parent reads them.
 */

/** The rough dev scans differ from the standard ones: more skew and noise, blur, JPEG, other typefaces. */
const ROUGH_FONTS = ['DejaVu Serif', 'DejaVu Sans Mono', 'DejaVu Sans', 'DejaVu Serif'];

/** The i-th statement of a scan family as a one-page scanned PDF. */
export async function scanOf(g: GeneratedStatement, i: number, variant: ScanVariant = 'standard'): Promise<Uint8Array> {
  if (variant === 'rough') {
    const jpeg = i % 3 === 2;
    const image = await renderScan(g, {
      dpi: 200 + (i % 3) * 50,
      skewDeg: ((i % 7) - 3) * 0.3,
      quarterTurns: 0,
      noise: 0.005,
      blur: i % 2 === 0,
      format: jpeg ? 'jpeg' : 'png',
      seed: 500 + i,
      font: ROUGH_FONTS[i % ROUGH_FONTS.length]!,
    });
    return imageToPdf(image, jpeg ? 'jpeg' : 'png');
  }
  return imageToPdf(
    await renderScan(g, {
      dpi: 200 + (i % 3) * 50,
      skewDeg: ((i % 5) - 2) * 0.2,
      quarterTurns: 0,
      noise: 0.002,
      blur: i % 2 === 1,
      format: 'png',
      seed: i + 1,
    }),
    'png',
  );
}

/** Where a family's rendered scans go. */
function familyDir(family: string): string {
  const slug = family
    .replace(/[^A-Za-z0-9]+/g, '-')
    .replace(/^-|-$/g, '')
    .toLowerCase();
  return path.join(cacheDir(), '..', 'statement-scans', slug);
}

/**
 * Renders one family's scans in a child process; the PDFs' paths in the family's order, or null when the child
 * failed every attempt (its signal or exit code is logged).
 */
export function renderScansIsolated(family: string, attempts = 2): string[] | null {
  const script = fileURLToPath(import.meta.url);
  for (let attempt = 1; attempt <= attempts; attempt++) {
    // The parent's loader flags (tsx) carry over, so the child runs this TypeScript file as the parent would.
    const r = spawnSync(process.execPath, [...process.execArgv, script, '--render', family], {
      stdio: ['ignore', 'pipe', 'inherit'],
      encoding: 'utf8',
    });
    if (r.status === 0) {
      const files = JSON.parse(r.stdout.trim().split('\n').at(-1) ?? '[]') as string[];
      if (files.length && files.every((f) => existsSync(f))) return files;
    }
    console.log(
      `statement scans '${family}': the render process ended (${r.signal ?? `exit ${r.status}`}), attempt ${attempt}`,
    );
  }
  return null;
}

if (process.argv[1] === fileURLToPath(import.meta.url) && process.argv.includes('--render')) {
  const family = process.argv[process.argv.indexOf('--render') + 1]!;
  const { statementFamilies } = await import('./statement.families');
  const f = statementFamilies()[family];
  if (!f?.scan) {
    console.error(`no scan family '${family}'`);
    process.exit(2);
  }
  const dir = familyDir(family);
  rmSync(dir, { recursive: true, force: true });
  mkdirSync(dir, { recursive: true });
  const files: string[] = [];
  for (const [i, g] of f.items.entries()) {
    const file = path.join(dir, `${g.id}.pdf`);
    writeFileSync(file, await scanOf(g, i, f.scanVariant));
    files.push(file);
  }
  // The last line of stdout: the files, in the family's order.
  console.log(JSON.stringify(files));
}
