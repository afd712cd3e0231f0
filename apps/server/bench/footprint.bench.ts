/**
 * What one person costs in storage: FOOTPRINT_USERS people (default 5) each import a mailbox of FOOTPRINT_MESSAGES
 * messages (default 800) through the product's mail import (`invoicebox import`: the runtime's ingest with field
 * extraction) on the EMBEDDED PostgreSQL of a data folder of its own. Then pg_total_relation_size of every table
 * (heap, indexes and TOAST) divided by people and by invoices, rows per person, and document bytes per invoice.
 *
 * The mailbox is a realistic mix: ~15% invoice mails with a real invoice PDF from ../shared/datasets (15–300 KB,
 * made distinct per person and mail by a trailing PDF comment, as real invoices differ), a few of them resent, ~3%
 * with a PDF that is no invoice, the rest newsletters and notifications (a few KB of text, no attachment).
 * Prints figures; never fails on time.
 */
import { readdirSync, readFileSync } from 'node:fs';
import fs from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import { Writable } from 'node:stream';
import { sql } from 'drizzle-orm';
import { mulberry32 } from '../eval/invoice.generator';
import { loadConfig } from '../src/config';
import { users } from '../src/db/schema';
import { shutdownExtraction } from '../src/extraction/index';
import { createLogger } from '../src/logger';
import { readRawMailPath } from '../src/mail/mail-path.reader';
import { createRuntime } from '../src/runtime';
import { buildMail, buildMbox, repoRoot } from '../test/mail/mail-builder';

const USERS = Number(process.env.FOOTPRINT_USERS ?? 5);
const MESSAGES = Number(process.env.FOOTPRINT_MESSAGES ?? 800);
const datasets = path.resolve(repoRoot, '../shared/datasets');

function realPdfs(): Buffer[] {
  const found: Buffer[] = [];
  const walk = (dir: string) => {
    for (const entry of readdirSync(dir, { withFileTypes: true })) {
      const full = path.join(dir, entry.name);
      if (entry.isDirectory()) walk(full);
      else if (entry.name.toLowerCase().endsWith('.pdf')) found.push(readFileSync(full));
    }
  };
  walk(path.join(datasets, 'invoices-pdf'));
  walk(path.join(datasets, 'einvoices'));
  if (found.length === 0) throw new Error(`no invoice PDFs under ${datasets}`);
  return found;
}

/** One person's mailbox; `person` makes every PDF's bytes their own. */
function mailbox(person: number, pdfs: Buffer[]): { mbox: Buffer; invoiceMails: number } {
  const rnd = mulberry32(1000 + person);
  const messages: Buffer[] = [];
  const sent: Buffer[] = [];
  let invoiceMails = 0;
  const filler = (words: number) =>
    Array.from(
      { length: words },
      () => ['offer', 'update', 'your', 'account', 'news', 'week', 'team'][Math.floor(rnd() * 7)],
    ).join(' ');
  for (let i = 0; i < MESSAGES; i++) {
    const date = new Date(Date.UTC(2025, 0, 1) + i * 10_800_000).toUTCString();
    const messageId = `<fp-${person}-${i}@mail.example>`;
    const r = rnd();
    if (r < 0.15) {
      invoiceMails += 1;
      const resend = sent.length > 0 && rnd() < 0.05;
      const pdf = resend
        ? sent[Math.floor(rnd() * sent.length)]!
        : Buffer.concat([pdfs[Math.floor(rnd() * pdfs.length)]!, Buffer.from(`\n% footprint ${person}-${i}\n`)]);
      if (!resend) sent.push(pdf);
      messages.push(
        buildMail({
          from: `Vendor ${i % 40} <billing@vendor${i % 40}.example>`,
          subject: `Your invoice ${person}-${i}`,
          date,
          messageId,
          text: `Dear customer, your invoice is attached. ${filler(60)}`,
          attachments: [{ filename: `invoice-${person}-${i}.pdf`, contentType: 'application/pdf', content: pdf }],
        }),
      );
    } else if (r < 0.18) {
      messages.push(
        buildMail({
          from: 'Weekly Digest <news@digest.example>',
          subject: `Our monthly newsletter #${i}`,
          date,
          messageId,
          text: filler(200),
          attachments: [{ filename: `catalog-${i}.pdf`, contentType: 'application/pdf', content: pdfs[0]! }],
        }),
      );
    } else {
      messages.push(
        buildMail({
          from: `Notifications <noreply@service${i % 25}.example>`,
          subject: `Update ${i}: ${filler(5)}`,
          date,
          messageId,
          text: filler(300 + Math.floor(rnd() * 900)),
        }),
      );
    }
  }
  return { mbox: buildMbox(messages), invoiceMails };
}

export async function runFootprintBench(): Promise<void> {
  const dir = await fs.mkdtemp(path.join(os.tmpdir(), 'invoicebox-bench-footprint-'));
  await fs.chmod(dir, 0o755);
  const logger = createLogger('silent', new Writable({ write: (_c, _e, done) => done() }));
  // No DATABASE_URL: the embedded PostgreSQL of this data folder, never a server of the machine.
  const config = loadConfig({ INVOICEBOX_DATA_DIR: path.join(dir, 'data'), INVOICEBOX_WORKERS: 'false', PORT: '0' });
  const runtime = await createRuntime(config, logger);
  try {
    const pdfs = realPdfs();
    const { db } = runtime.database;
    let mailBytes = 0;
    const started = performance.now();
    for (let person = 0; person < USERS; person++) {
      const [owner] = await db
        .insert(users)
        .values({ email: `person${person}@example.com`, displayName: `Person ${person}` })
        .returning();
      const account = await runtime.accounts.connect(owner!.id, {
        provider: 'mbox',
        email: `person${person}@example.com`,
        displayName: 'Imported mail',
      });
      const { mbox } = mailbox(person, pdfs);
      mailBytes += mbox.length;
      const file = path.join(dir, `person${person}.mbox`);
      await fs.writeFile(file, mbox);
      await runtime.ingest.ingest(owner!.id, account.userId, readRawMailPath(file));
      await fs.rm(file);
    }
    const seconds = (performance.now() - started) / 1000;
    await db.execute(sql`vacuum analyze`);

    const count = async (query: ReturnType<typeof sql>) =>
      Number(((await db.execute(query)).rows[0] as { n: string | number }).n);
    const invoices = await count(sql`select count(*) as n from invoices`);
    const messages = await count(sql`select count(*) as n from mail_messages`);
    const sizes = (
      await db.execute(sql`
        select c.relname as name, pg_total_relation_size(c.oid) as bytes
        from pg_class c join pg_namespace n on n.oid = c.relnamespace
        where n.nspname = 'public' and c.relkind = 'r'
        order by pg_total_relation_size(c.oid) desc`)
    ).rows as Array<{ name: string; bytes: string }>;
    // Exact row counts (the statistics' estimates are off by several per cent on tables this small).
    const rowsOf = new Map<string, number>();
    for (const t of sizes) rowsOf.set(t.name, await count(sql.raw(`select count(*) as n from "${t.name}"`)));

    console.log(
      `${USERS} people × ${MESSAGES} messages (${(mailBytes / USERS / 1e6).toFixed(1)} MB of mail each), imported in ` +
        `${seconds.toFixed(1)} s on the embedded PostgreSQL: ${messages} message rows, ${invoices} invoices ` +
        `(${(invoices / USERS).toFixed(0)} per person) (FOOTPRINT_USERS, FOOTPRINT_MESSAGES)`,
    );
    console.log('table: rows per person, bytes per person, bytes per invoice (heap + indexes + TOAST)');
    let total = 0;
    let totalRows = 0;
    for (const t of sizes) {
      const bytes = Number(t.bytes);
      const rows = rowsOf.get(t.name) ?? 0;
      total += bytes;
      totalRows += rows;
      if (rows === 0) continue;
      console.log(
        `  ${t.name}: ${(rows / USERS).toFixed(1)} rows, ${kb(bytes / USERS)}, ${kb(bytes / Math.max(1, invoices))}`,
      );
    }
    const empty = sizes.filter((t) => (rowsOf.get(t.name) ?? 0) === 0);
    const emptyBytes = empty.reduce((sum, t) => sum + Number(t.bytes), 0);
    console.log(`  (${empty.length} tables without rows: ${kb(emptyBytes)} in all, a fixed cost)`);
    console.log(
      `database (public schema): ${(totalRows / USERS).toFixed(0)} rows and ${kb((total - emptyBytes) / USERS)} per person, ` +
        `${kb((total - emptyBytes) / Math.max(1, invoices))} per invoice, ${kb((total - emptyBytes) / Math.max(1, messages))} per message`,
    );

    const blobBytes = await folderBytes(path.join(config.dataDir, 'blobs'));
    const attachmentBytes = await count(sql`
      select coalesce(sum(size), 0) as n from (select distinct on (sha256) sha256, size from message_attachments) d`);
    console.log(
      `documents (local store): ${(blobBytes / 1e6).toFixed(1)} MB in all = ${kb(blobBytes / USERS)} per person, ` +
        `${kb(blobBytes / Math.max(1, invoices))} per invoice (attachments and raw invoice emails, each once per SHA-256)`,
    );
    console.log(
      `  of which attachments (distinct): ${kb(attachmentBytes / Math.max(1, invoices))} per invoice; the rest, ` +
        `${kb((blobBytes - attachmentBytes) / Math.max(1, invoices))} per invoice, is the raw invoice emails kept for forwarding`,
    );
  } finally {
    await shutdownExtraction().catch(() => undefined);
    await runtime.close();
    await fs.rm(dir, { recursive: true, force: true });
  }
}

async function folderBytes(dir: string): Promise<number> {
  let sum = 0;
  for (const entry of await fs.readdir(dir, { withFileTypes: true, recursive: true }).catch(() => [])) {
    if (entry.isFile()) sum += (await fs.stat(path.join(entry.parentPath, entry.name))).size;
  }
  return sum;
}

function kb(bytes: number): string {
  return bytes >= 1e6 ? `${(bytes / 1e6).toFixed(2)} MB` : `${(bytes / 1e3).toFixed(1)} KB`;
}
