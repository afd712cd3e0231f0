import { createWriteStream } from 'node:fs';
import { mkdtemp, rm, writeFile } from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import v8 from 'node:v8';
import vm from 'node:vm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { buildMail, buildMbox, FAKE_PDF } from '../../test/mail/mail-builder';
import type { RawMail } from './mail-message';
import { parseMailMessage } from './mail-message.parser';
import { type MboxPiece, MboxSplitter, readMbox } from './mbox.reader';

/** Splits a whole file, fed in chunks of the given size. */
function split(data: Buffer | string, chunkSize = 1 << 20, maxMessageBytes?: number): MboxPiece[] {
  const bytes = Buffer.from(data);
  const splitter = new MboxSplitter(maxMessageBytes);
  const out: MboxPiece[] = [];
  for (let i = 0; i < bytes.length; i += chunkSize) out.push(...splitter.push(bytes.subarray(i, i + chunkSize)));
  out.push(...splitter.end());
  return out;
}
const sources = (pieces: MboxPiece[]) =>
  pieces.map((p) => ('source' in p ? p.source.toString('latin1') : `<too large: ${p.size}>`));

const envelope = (n: number) => `From sender@example.com Mon Nov  2 10:00:0${n} 2026`;

describe('MboxSplitter', () => {
  it.each([
    ['LF', '\n'],
    ['CRLF', '\r\n'],
  ])('splits on envelope lines and drops the separating empty line (%s)', (_label, eol) => {
    const file = [envelope(1), 'Subject: one', '', 'body 1', '', envelope(2), 'Subject: two', '', 'body 2', ''].join(
      eol,
    );
    expect(sources(split(file))).toEqual([
      ['Subject: one', '', 'body 1', ''].join(eol),
      ['Subject: two', '', 'body 2', ''].join(eol),
    ]);
  });

  it('un-escapes >From lines (mboxrd) and leaves other > lines alone', () => {
    const file = [
      envelope(1),
      'Subject: q',
      '',
      '>From the desk of Ann',
      '>>From nested quote',
      '> quoted',
      '>Fromage',
      '',
    ].join('\n');
    expect(sources(split(file))).toEqual([
      ['Subject: q', '', 'From the desk of Ann', '>From nested quote', '> quoted', '>Fromage', ''].join('\n'),
    ]);
  });

  it('does not split on an unescaped body From line that does not look like an envelope', () => {
    const file = [envelope(1), 'Subject: q', '', 'Hello', 'From my point of view, fine.', 'bye', ''].join('\n');
    expect(split(file)).toHaveLength(1);
  });

  it('splits on a From line after an empty line even without a date (Python mailbox, hand-written files)', () => {
    const file = ['From a', 'Subject: 1', '', 'x', '', 'From b', 'Subject: 2', '', 'y', ''].join('\n');
    expect(sources(split(file))).toEqual(['Subject: 1\n\nx\n', 'Subject: 2\n\ny\n']);
  });

  it('gives the same messages whatever the chunk size', () => {
    const mbox = buildMbox(
      [1, 2, 3].map((n) => buildMail({ subject: `n${n}`, text: `From here on\n>From there\nline ${n}` })),
      '\r\n',
    );
    const whole = sources(split(mbox));
    expect(whole).toHaveLength(3);
    for (const size of [1, 2, 3, 7, 64, 1000]) expect(sources(split(mbox, size))).toEqual(whole);
  });

  it('records offsets and 1-based indexes', () => {
    const file = `${envelope(1)}\nA: 1\n\n${envelope(2)}\nA: 2\n`;
    expect(split(file).map((p) => [p.index, p.offset])).toEqual([
      [1, 0],
      [2, envelope(1).length + 7],
    ]);
  });

  it('reports a message over the limit without holding it', () => {
    const file = [envelope(1), 'A: 1', '', 'x'.repeat(500), '', envelope(2), 'A: 2', '', 'small', ''].join('\n');
    const pieces = split(file, 64, 200);
    expect(pieces[0]).toMatchObject({ index: 1, tooLarge: true });
    expect(sources(pieces.slice(1))).toEqual(['A: 2\n\nsmall\n']);
  });

  it('passes a very long line on in pieces and still splits after it', () => {
    const long = 'y'.repeat(300_000);
    const file = `${envelope(1)}\nA: 1\n\n${long}\n\n${envelope(2)}\nA: 2\n`;
    const pieces = split(file, 10_000);
    expect(sources(pieces)).toEqual([`A: 1\n\n${long}\n`, 'A: 2\n']);
  });

  it('keeps bytes before the first envelope line as a message of their own', () => {
    expect(sources(split(`junk\n${envelope(1)}\nA: 1\n`))).toEqual(['junk\n', 'A: 1\n']);
    expect(split('\n\n\n')).toEqual([]);
    expect(split('')).toEqual([]);
  });

  it('handles a file without a final line break', () => {
    expect(sources(split(`${envelope(1)}\nA: 1\n\nlast line`))).toEqual(['A: 1\n\nlast line']);
  });
});

describe('readMbox', () => {
  let dir: string;
  beforeAll(async () => {
    dir = await mkdtemp(path.join(os.tmpdir(), 'invoicebox-mbox-'));
  });
  afterAll(async () => {
    await rm(dir, { recursive: true, force: true });
  });

  async function collect(file: string, max?: number): Promise<RawMail[]> {
    const out: RawMail[] = [];
    for await (const raw of readMbox(file, max)) out.push(raw);
    return out;
  }

  it('reads the messages of a file with their origins, byte-exact', async () => {
    const mails = [
      buildMail({ subject: 'one', text: 'From now on, >From escaped' }),
      buildMail({ subject: 'two', attachments: [{ filename: 'invoice.pdf', content: FAKE_PDF }] }),
    ];
    const file = path.join(dir, 'two.mbox');
    await writeFile(file, buildMbox(mails));
    const raws = await collect(file);
    expect(raws.map((r) => (r.ok ? r.origin : r.error.origin))).toEqual([`${file}#1`, `${file}#2`]);
    // buildMbox ends each message with a line break; the reader keeps it and drops only the separating empty line.
    const withEol = mails.map((m) => m.toString('latin1')).map((m) => (m.endsWith('\n') ? m : `${m}\n`));
    expect(raws.map((r) => (r.ok ? r.source.toString('latin1') : ''))).toEqual(withEol);
  });

  it('reports an oversize message and goes on', async () => {
    const file = path.join(dir, 'big.mbox');
    await writeFile(file, buildMbox([buildMail({ text: 'z'.repeat(10_000) }), buildMail({ subject: 'ok' })]));
    const raws = await collect(file, 5_000);
    expect(raws[0]).toMatchObject({ ok: false, error: { origin: `${file}#1`, code: 'message_too_large' } });
    expect(raws[1]?.ok).toBe(true);
  });

  it('streams a ~20 MB mbox with bounded memory', async () => {
    const file = path.join(dir, 'large.mbox');
    const attachment = Buffer.alloc(12_000, 0x61);
    const template = buildMbox([
      buildMail({ attachments: [{ filename: 'invoice.pdf', contentType: 'application/pdf', content: attachment }] }),
    ]);
    const count = Math.ceil((20 * 1024 * 1024) / template.length);
    await new Promise<void>((resolve, reject) => {
      const out = createWriteStream(file);
      out.on('error', reject);
      let i = 0;
      const write = () => {
        while (i < count) {
          i += 1;
          if (!out.write(template)) {
            out.once('drain', write);
            return;
          }
        }
        out.end(resolve);
      };
      write();
    });
    const fileSize = template.length * count;

    // Live memory is what must stay bounded, so garbage is collected before each sample.
    v8.setFlagsFromString('--expose-gc');
    const gc = vm.runInNewContext('gc') as () => void;
    // Buffer memory is released by a background sweeper after a GC, so give it a moment.
    const live = async () => {
      gc();
      await new Promise((resolve) => setTimeout(resolve, 5));
      gc();
      const usage = process.memoryUsage();
      return usage.heapUsed + usage.arrayBuffers;
    };
    const before = await live();
    let warm = 0;
    let peak = 0;
    let messages = 0;
    let attachments = 0;
    const started = performance.now();
    for await (const raw of readMbox(file)) {
      if (!raw.ok) throw new Error(raw.error.message);
      const parsed = await parseMailMessage(raw.source, raw.origin);
      if (parsed.ok) attachments += parsed.message.attachments.length;
      messages += 1;
      // The first messages load the parser's lazy parts (charset tables and so on): measure growth after them.
      if (messages === 100) warm = await live();
      if (messages > 100 && messages % 200 === 0) peak = Math.max(peak, (await live()) - warm);
    }
    const seconds = (performance.now() - started) / 1000;
    expect(messages).toBe(count);
    expect(attachments).toBe(count);
    // Held at a time: one message and one chunk, never the file; so memory does not grow as the file is read.
    expect(warm - before).toBeLessThan(fileSize / 2);
    expect(peak).toBeLessThan(fileSize / 20);
    console.log(
      `mbox: ${count} messages, ${(fileSize / 1024 / 1024).toFixed(1)} MB read and parsed in ${seconds.toFixed(2)} s ` +
        `(${Math.round(count / seconds)} messages/s); live memory +${((warm - before) / 1024 / 1024).toFixed(1)} MB ` +
        `after warm-up, then at most +${(peak / 1024 / 1024).toFixed(1)} MB`,
    );
  }, 120_000);
});
