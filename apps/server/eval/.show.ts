import { loadCached } from '/work/wt-extract/apps/server/eval/rules-lines';
const names = process.argv.slice(2);
for (const d of loadCached('dev')) {
  if (!names.some((n) => d.name.includes(n))) continue;
  console.log(`=== ${d.name}`);
  for (const l of d.lines) console.log(`p${l.page} ${l.rel.toFixed(2)} s${l.size.toFixed(0)} | ${l.cells.map((c) => `[${c.x0.toFixed(0)}] ${c.text}`).join('  |  ')}`);
}
