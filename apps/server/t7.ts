import fs from 'node:fs/promises';
import { hostileCorpus, prepareCorpus } from './test/hostile/corpus';
import { MemoryWatch, serverApi, serverStatement, serverZip, startHostileServer } from './test/hostile/harness';
await prepareCorpus();
const items = hostileCorpus().filter(i => i.channel === 'api' && (!process.env.ONLY || i.id.includes(process.env.ONLY)));
const root = await fs.mkdtemp('/tmp/invoicebox-hostile-dbg-'); await fs.chmod(root, 0o755);
const server = await startHostileServer({ root, env: { LOG_LEVEL: 'error', ...(process.env.DB ? { DATABASE_URL: process.env.DB } : {}) }, memory: new MemoryWatch() });
if (process.env.PRE) {
  const all = hostileCorpus();
  const t0 = Date.now();
  const pre = process.env.PRE === 'zip' ? await serverZip(server, all.filter(i => i.channel === 'zip'), { deadlineMs: 60000 }) : await serverStatement(server, all.filter(i => i.channel === 'csv'), { deadlineMs: 60000 });
  console.log('pre', Date.now() - t0, pre.filter(o => o.verdict !== 'ok' && o.verdict !== 'clear_error'));
}
for (const item of items) {
  const t = Date.now();
  const [o] = await serverApi(server, [item], { deadlineMs: 8000 });
  const ms = Date.now() - t;
  if (ms > 1500 || (o!.verdict !== 'ok' && o!.verdict !== 'clear_error')) console.log(ms, o!.verdict, o!.id, o!.detail.slice(0, 150));
}
console.log('alive', server.alive());
await server.stop(); await fs.rm(root, { recursive: true, force: true });
