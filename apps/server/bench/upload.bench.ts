/**
 * Documents added per second, through `POST /invoices/upload` (a real HTTP server, multipart, 4 files a request,
 * 2 requests at once) and through the inbox folder (files saved in it, until all are in done/), on the embedded
 * default. Every file is a distinct generated invoice PDF read in the document sandbox, so the figures include the
 * extraction. Prints figures; never fails on time.
 */
import fs from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import { Writable } from 'node:stream';
import { generateInvoice } from '../eval/invoice.generator';
import { renderPdf } from '../eval/invoice.renderers';
import { loadConfig } from '../src/config';
import { buildApp } from '../src/http/app';
import { createLogger } from '../src/logger';
import { createRuntime } from '../src/runtime';
import { InboxFolder } from '../src/uploads/inbox-folder';

const FILES = Number(process.env.UPLOAD_BENCH_FILES ?? 40);
const PER_REQUEST = 4;
const PARALLEL = 2;

export async function runUploadBench(): Promise<void> {
  const dir = await fs.mkdtemp(path.join(os.tmpdir(), 'invoicebox-bench-upload-'));
  await fs.chmod(dir, 0o755);
  const logger = createLogger('silent', new Writable({ write: (_c, _e, done) => done() }));
  const config = loadConfig({ INVOICEBOX_DATA_DIR: path.join(dir, 'data'), INVOICEBOX_WORKERS: 'false', PORT: '0' });
  const runtime = await createRuntime(config, logger);
  try {
    await runtime.auth.local.signUp({ email: 'bench@example.com', password: 'a long bench password' }, {});
    const owner = (await runtime.users.owner())!;
    const pdfs = await Promise.all(
      Array.from({ length: FILES * 2 }, async (_, i) =>
        Buffer.from(await renderPdf(generateInvoice(1000 + i, i % 2 ? 'en' : 'de'))),
      ),
    );

    const app = await buildApp({
      config,
      logger,
      health: runtime.health,
      jobs: runtime.jobs,
      authenticate: runtime.authenticate,
      auth: runtime.auth,
      routes: runtime.routes,
    });
    try {
      const url = await app.listen({ port: 0, host: '127.0.0.1' });
      const signin = await fetch(`${url}/api/v1/auth/local/signin`, {
        method: 'POST',
        headers: { 'content-type': 'application/json' },
        body: JSON.stringify({ email: 'bench@example.com', password: 'a long bench password' }),
      });
      const { token } = (await signin.json()) as { token: string };
      const batches = Array.from({ length: Math.ceil(FILES / PER_REQUEST) }, (_, b) =>
        pdfs.slice(b * PER_REQUEST, Math.min(FILES, (b + 1) * PER_REQUEST)),
      );
      let next = 0;
      let added = 0;
      const started = performance.now();
      await Promise.all(
        Array.from({ length: PARALLEL }, async () => {
          while (next < batches.length) {
            const batch = batches[next++]!;
            const form = new FormData();
            for (const [i, pdf] of batch.entries()) form.append('files', new Blob([pdf]), `invoice-${next}-${i}.pdf`);
            const res = await fetch(`${url}/api/v1/invoices/upload`, {
              method: 'POST',
              headers: { authorization: `Bearer ${token}` },
              body: form,
            });
            const body = (await res.json()) as { files: Array<{ status: string }> };
            added += body.files.filter((f) => f.status === 'added').length;
          }
        }),
      );
      const seconds = (performance.now() - started) / 1000;
      console.log(
        `upload: ${FILES} PDFs (${PER_REQUEST} a request, ${PARALLEL} at once) in ${seconds.toFixed(1)} s: ` +
          `${(FILES / seconds).toFixed(1)} files/s (${added} added)`,
      );
    } finally {
      await app.close();
    }

    const inbox = path.join(dir, 'inbox');
    await fs.mkdir(inbox);
    const pollMs = 250;
    const folder = new InboxFolder(runtime.uploads, { dir: inbox, pollMs, ownerId: async () => owner.id });
    const started = performance.now();
    for (const [i, pdf] of pdfs.slice(FILES).entries()) await fs.writeFile(path.join(inbox, `scan-${i}.pdf`), pdf);
    await folder.start();
    try {
      for (;;) {
        const done = await fs.readdir(path.join(inbox, 'done')).catch(() => [] as string[]);
        const failed = await fs.readdir(path.join(inbox, 'failed')).catch(() => [] as string[]);
        if (done.length + failed.filter((f) => !f.endsWith('.reason.txt')).length >= FILES) break;
        await new Promise((r) => setTimeout(r, 50));
      }
    } finally {
      await folder.stop();
    }
    const seconds = (performance.now() - started) / 1000;
    console.log(
      `inbox folder: ${FILES} PDFs saved at once, all in done/ after ${seconds.toFixed(1)} s: ` +
        `${(FILES / seconds).toFixed(1)} files/s (polled every ${pollMs} ms; a file waits two looks)`,
    );
  } finally {
    const { shutdownExtraction } = await import('../src/extraction/index');
    await shutdownExtraction();
    await runtime.close();
    await fs.rm(dir, { recursive: true, force: true });
  }
}
