/**
 * `invoicebox scan` over generated mboxes: messages/s of the scan service (with field extraction, as the command runs
 * by default, and with --no-extract), and the peak RSS growth while scanning, at two mbox sizes: the same growth for
 * four times the messages shows that memory does not grow with the mbox. Prints figures; never fails on time.
 */
import { spawn } from 'node:child_process';
import fs from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { extractInvoiceFields, shutdownExtraction } from '../src/extraction/index';
import { nullFieldExtractor } from '../src/mail/field-extractor';
import { scanPath } from '../src/mail/scan.service';
import { buildMbox } from '../test/mail/mail-builder';
import { generateMailbox } from '../test/mail/mailbox-generator';

const MESSAGES = Number(process.env.BENCH_SCAN_MESSAGES ?? 5_000);

export async function runMboxScanBench(): Promise<void> {
  const dir = await fs.mkdtemp(path.join(os.tmpdir(), 'invoicebox-bench-scan-'));
  try {
    const warmup = await writeMbox(dir, 1_000, 20);
    const small = await writeMbox(dir, MESSAGES, 21);
    const large = await writeMbox(dir, MESSAGES * 4, 22);
    for (const [label, mbox, extract] of [
      ['with extraction', small, true],
      ['--no-extract   ', small, false],
      ['--no-extract   ', large, false],
    ] as const) {
      const run = await scanInChild(mbox.file, warmup.file, extract);
      if (run.total !== mbox.messages || run.invoices !== mbox.invoices) {
        throw new Error(`the scan of ${mbox.file} found ${run.invoices} invoices, not ${mbox.invoices}`);
      }
      console.log(
        `mbox scan ${label} ${String(mbox.messages).padStart(6)} messages (${(mbox.bytes / 1e6).toFixed(0)} MB): ` +
          `${(mbox.messages / run.seconds).toFixed(0).padStart(5)} msg/s, peak RSS +${(run.peakGrowth / 1e6).toFixed(1)} MB`,
      );
    }
  } finally {
    await fs.rm(dir, { recursive: true, force: true });
  }
}

async function writeMbox(dir: string, count: number, seed: number) {
  const mailbox = generateMailbox(count, seed);
  const bytes = buildMbox(mailbox.messages.map((m) => m.source));
  const file = path.join(dir, `${count}.mbox`);
  await fs.writeFile(file, bytes);
  // Invoice emails the scan must list: by construction, not by the rules under test.
  const invoices = mailbox.messages.filter((m) => m.invoiceKey !== null).length;
  return { file, messages: count, invoices, bytes: bytes.length };
}

interface ScanRun {
  total: number;
  invoices: number;
  seconds: number;
  peakGrowth: number;
}

/** Each scan in its own process: its RSS is the scan's alone, not the generator's garbage or an earlier run's heap. */
function scanInChild(file: string, warmup: string, extract: boolean): Promise<ScanRun> {
  const child = spawn(process.execPath, ['--import', 'tsx', fileURLToPath(import.meta.url), CHILD_FLAG, file, warmup], {
    env: { ...process.env, BENCH_SCAN_EXTRACT: extract ? '1' : '0' },
    stdio: ['ignore', 'pipe', 'inherit'],
  });
  let out = '';
  child.stdout.on('data', (c: Buffer) => {
    out += c.toString();
  });
  return new Promise((resolve, reject) => {
    child.once('error', reject);
    child.once('exit', (code) => {
      if (code !== 0) reject(new Error(`the scan process exited with ${code}`));
      else resolve(JSON.parse(out.trim().split('\n').pop()!) as ScanRun);
    });
  });
}

const CHILD_FLAG = '--bench-scan-child';

/** The child: a small scan first (loads the parser and pdf.js), then the measured one, sampling the RSS every 5 ms. */
async function scanChild(file: string, warmup: string): Promise<void> {
  const extractor =
    process.env.BENCH_SCAN_EXTRACT === '1'
      ? { extract: (input: Parameters<typeof extractInvoiceFields>[0]) => extractInvoiceFields(input) }
      : nullFieldExtractor;
  try {
    await scanPath(warmup, { extractor });
    const base = process.memoryUsage.rss();
    let peak = base;
    const timer = setInterval(() => {
      peak = Math.max(peak, process.memoryUsage.rss());
    }, 5);
    const started = performance.now();
    const result = await scanPath(file, { extractor });
    const seconds = (performance.now() - started) / 1000;
    clearInterval(timer);
    peak = Math.max(peak, process.memoryUsage.rss());
    const run: ScanRun = {
      total: result.total_emails,
      invoices: result.invoices.length,
      seconds,
      peakGrowth: peak - base,
    };
    process.stdout.write(`${JSON.stringify(run)}\n`);
  } finally {
    await shutdownExtraction().catch(() => {});
  }
}

if (process.argv[2] === CHILD_FLAG) await scanChild(process.argv[3]!, process.argv[4]!);
