import { MemoryWatch, runCli } from './test/hostile/harness';
for (const f of process.argv.slice(2)) {
  const m = new MemoryWatch(50);
  const t = Date.now();
  const r = await runCli(['extract', f, '--json'], { env: {}, cwd: '/tmp', deadlineMs: 90_000, memory: m });
  m.stop();
  console.log(f.split('/').pop(), r.code, r.signal, Date.now() - t, 'ms', (m.peakTotal/1e6).toFixed(0), 'MB', (r.stdout + r.stderr).replace(/\s+/g, ' ').slice(0, 200));
}
