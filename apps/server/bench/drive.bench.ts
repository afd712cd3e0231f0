/**
 * Filing speed into a WebDAV drive (a real Apache mod_dav on 127.0.0.1, RECIPES §3): files/s and MB/s for many small
 * and a few large invoices, then the cost of the duplicate check when everything is already there (with the sidecar
 * index, and after the index was lost, when same-size files are downloaded and hashed again). Prints figures; never
 * fails on time. Sequential uploads, one adapter instance, as a drive job runs them.
 */
import { createHash, randomBytes } from 'node:crypto';
import fs from 'node:fs/promises';
import path from 'node:path';
import { Readable } from 'node:stream';
import type { DriveStore, DriveUpload } from '../src/drive/drive.store';
import { WebDavDriveStore } from '../src/drive/webdav.drive';
import { startWebDav } from '../test/webdav-server';

interface Batch {
  label: string;
  count: number;
  size: number;
  folder: string[];
}

const BATCHES: Batch[] = [
  { label: '200 × 100 KB', count: 200, size: 100 * 1024, folder: ['Invoices', '2026', '01'] },
  { label: '20 × 5 MB', count: 20, size: 5 * 1024 * 1024, folder: ['Invoices', '2026', '02'] },
];

export async function benchDriveUpload(): Promise<string[]> {
  const lines: string[] = ['WebDAV: Apache mod_dav on 127.0.0.1, Basic auth (bcrypt), sequential uploads'];
  const dav = await startWebDav();
  try {
    const options = { url: dav.url, username: dav.username, password: dav.password, outbound: { allowPrivate: true } };
    for (const batch of BATCHES) {
      const files = Array.from({ length: batch.count }, () => randomBytes(batch.size));
      const mb = (batch.count * batch.size) / 1e6;

      const store = new WebDavDriveStore(options);
      const upload = await timed(() => uploadAll(store, batch, files, 'new'));
      if (upload.result.created !== batch.count) throw new Error(`expected ${batch.count} new files in ${batch.label}`);
      lines.push(
        `WebDAV upload ${batch.label}: ${fmt(upload.ms / 1000, 2)} s, ${fmt(batch.count / (upload.ms / 1000), 1)} files/s, ` +
          `${fmt(mb / (upload.ms / 1000), 1)} MB/s`,
      );

      // A fresh instance, as after a restart: nothing cached but what the drive itself keeps.
      const again = await timed(() => uploadAll(new WebDavDriveStore(options), batch, files, 'again'));
      if (again.result.created !== 0) throw new Error(`duplicates were uploaded again in ${batch.label}`);
      lines.push(`WebDAV duplicate check ${batch.label}, sidecar index: ${fmt(again.ms / batch.count, 2)} ms/file`);

      // The index lost: same-size files are downloaded and hashed until the match; what is learned is written back.
      await fs.rm(path.join(dav.dir, ...batch.folder, '.invoicebox-index.json'));
      const rehash = await timed(() => uploadAll(new WebDavDriveStore(options), batch, files, 'rehash'));
      if (rehash.result.created !== 0) throw new Error(`duplicates were uploaded again in ${batch.label}`);
      lines.push(`WebDAV duplicate check ${batch.label}, index lost: ${fmt(rehash.ms / batch.count, 2)} ms/file`);
    }
  } finally {
    await dav.dispose();
  }
  return lines;
}

async function uploadAll(store: DriveStore, batch: Batch, files: Buffer[], tag: string): Promise<{ created: number }> {
  let created = 0;
  for (const [i, content] of files.entries()) {
    const result = await store.upload(upload(content, batch.folder, `bench ${tag} ${i}.pdf`));
    if (result.created) created += 1;
  }
  return { created };
}

function upload(content: Buffer, folder: string[], name: string): DriveUpload {
  return {
    folder,
    name,
    sha256: createHash('sha256').update(content).digest('hex'),
    size: content.length,
    contentType: 'application/pdf',
    invoiceId: '00000000-0000-4000-8000-000000000000',
    open: () => Readable.from([content]),
  };
}

async function timed<T>(fn: () => Promise<T>): Promise<{ result: T; ms: number }> {
  const started = performance.now();
  const result = await fn();
  return { result, ms: performance.now() - started };
}

function fmt(value: number, digits: number): string {
  return value.toFixed(digits);
}
