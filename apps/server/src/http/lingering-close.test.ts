import { spawn } from 'node:child_process';
import Fastify, { type FastifyInstance } from 'fastify';
import { afterEach, describe, expect, it } from 'vitest';
import { registerLingeringClose } from './lingering-close';

/**
 * A client that is still sending when the server refuses its body must still read the 413. The client runs in its own
 * process and is busy for half a second after its first chunks (as a loaded machine is): a server that closes at once
 * resets the connection in that time and the client's fetch fails with EPIPE (3 of 6 runs without the hook, on this
 * machine); one that lingers does not.
 */
const CLIENT = `
const chunk = new Uint8Array(256 * 1024).fill(120);
let n = 0;
const body = new ReadableStream({
  pull(c) {
    n += 1;
    if (n === 3) { const t = Date.now(); while (Date.now() - t < 500) {} }
    if (n > Number(process.argv[2])) return c.close();
    c.enqueue(chunk);
  },
});
try {
  const r = await fetch(process.env.TARGET, { method: 'POST', headers: { 'content-type': 'application/json' }, body, duplex: 'half' });
  await r.text();
  console.log(r.status);
} catch (e) { console.log('failed ' + (e.cause?.code ?? e.message)); }
`;

function slowClient(target: string, chunks: number): Promise<string> {
  return new Promise((resolve, reject) => {
    const child = spawn(process.execPath, ['--input-type=module', '-e', CLIENT, '--', String(chunks)], {
      env: { ...process.env, TARGET: target },
      stdio: ['ignore', 'pipe', 'inherit'],
    });
    let out = '';
    child.stdout.on('data', (d) => {
      out += d;
    });
    child.on('error', reject);
    child.on('exit', () => resolve(out.trim()));
  });
}

describe('lingering close after a refused body', () => {
  let app: FastifyInstance | undefined;
  afterEach(async () => {
    await app?.close();
  });

  async function start(maxDrainBytes: number | null) {
    app = Fastify({ bodyLimit: 64 * 1024 });
    if (maxDrainBytes !== null) registerLingeringClose(app, { maxDrainBytes, maxDrainMs: 30_000 });
    app.post('/echo', async () => ({ ok: true }));
    return `${await app.listen({ port: 0, host: '127.0.0.1' })}/echo`;
  }

  it('lets a slow client finish sending and read the 413, every time', async () => {
    const target = await start(64 * 1024 * 1024);
    const outcomes: string[] = [];
    for (let i = 0; i < 6; i += 1) outcomes.push(await slowClient(target, 80));
    expect(outcomes).toEqual(Array(6).fill('413'));
    // The same connection pool keeps working for ordinary requests.
    const ok = await fetch(target, { method: 'POST', headers: { 'content-type': 'application/json' }, body: '{}' });
    expect(ok.status).toBe(200);
  }, 180_000);

  it('reads no more than it may: past the drain limit the connection is cut and the server stays up', async () => {
    const target = await start(1024 * 1024);
    const outcome = await slowClient(target, 80);
    expect(['413', 'failed EPIPE', 'failed ECONNRESET', 'failed UND_ERR_SOCKET']).toContain(outcome);
    const ok = await fetch(target, { method: 'POST', headers: { 'content-type': 'application/json' }, body: '{}' });
    expect(ok.status).toBe(200);
  }, 60_000);
});
