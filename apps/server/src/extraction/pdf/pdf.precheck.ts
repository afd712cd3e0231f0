import zlib from 'node:zlib';

/**
 * Measures what a PDF's Flate streams inflate to, before pdf.js sees the file: a few kilobytes can inflate to
 * gigabytes (a "flate bomb"), and pdf.js would either allocate all of it or lex it byte by byte for minutes. Each
 * stream is inflated natively and its output counted and thrown away, stopping as soon as a budget is passed.
 *
 * The scan is deliberately simple (it looks for `stream` keywords after a dictionary, not a full object parse): it is
 * a cheap first limit, not the only one. pdf.js's own decoders are bounded too (pdf.isolate.ts), and whatever gets
 * past both still ends in the document sandbox's memory limit.
 */

export interface InflateBudget {
  /** Bytes inflated from all Flate streams together. */
  totalBytes: number;
  /** Of those, bytes from streams that are not images (page content, fonts, embedded files, object streams). */
  nonImageBytes: number;
}

/** The non-image share of a total budget: invoices' page content is kilobytes; tens of MB are already abnormal. */
export function inflateBudgetFor(totalBytes: number): InflateBudget {
  return { totalBytes, nonImageBytes: Math.min(64 * 1024 * 1024, Math.floor(totalBytes / 4)) };
}

export type InflateCheck = { ok: true; totalBytes: number } | { ok: false; message: string };

const STREAM = Buffer.from('stream');
const ENDSTREAM = Buffer.from('endstream');
/** How far back from `stream` the stream's dictionary is looked for. */
const DICT_WINDOW = 4096;

export async function checkInflatedSize(bytes: Uint8Array, budget: InflateBudget): Promise<InflateCheck> {
  const pdf = Buffer.from(bytes.buffer, bytes.byteOffset, bytes.byteLength);
  let total = 0;
  let nonImage = 0;
  let at = 0;
  for (;;) {
    const keyword = pdf.indexOf(STREAM, at);
    if (keyword < 0) break;
    at = keyword + STREAM.length;
    // `stream` must end a dictionary (">>" then whitespace) and be followed by an end of line.
    const before = pdf.subarray(Math.max(0, keyword - DICT_WINDOW), keyword).toString('latin1');
    if (!/>>\s*$/.test(before) || pdf[keyword - 1] === 0x64 /* the "d" of endstream */) continue;
    let start = at;
    if (pdf[start] === 0x0d) start++;
    if (pdf[start] !== 0x0a && pdf[at] !== 0x0d) continue;
    if (pdf[start] === 0x0a) start++;
    const dict = before.slice(before.lastIndexOf('obj') + 1);
    if (!/\/FlateDecode|\/Fl\b/.test(dict)) continue;
    const direct = /\/Length\s+(\d+)(?!\s+\d+\s+R)/.exec(dict);
    let end = direct ? start + Number(direct[1]) : -1;
    if (end < start || end > pdf.length) end = pdf.indexOf(ENDSTREAM, start);
    if (end < 0) end = pdf.length;
    at = Math.max(at, end);
    const isImage = /\/Subtype\s*\/Image/.test(dict);
    const left = Math.min(
      budget.totalBytes - total,
      isImage ? Number.POSITIVE_INFINITY : budget.nonImageBytes - nonImage,
    );
    const produced = await inflatedLength(pdf.subarray(start, end), left);
    total += produced;
    if (!isImage) nonImage += produced;
    if (total > budget.totalBytes) {
      return { ok: false, message: `its streams inflate to more than ${mb(budget.totalBytes)} MB` };
    }
    if (nonImage > budget.nonImageBytes) {
      return { ok: false, message: `its page content inflates to more than ${mb(budget.nonImageBytes)} MB` };
    }
  }
  return { ok: true, totalBytes: total };
}

/** Bytes `data` inflates to, counting at most `limit + 1` (a damaged stream counts what came out before the damage). */
function inflatedLength(data: Uint8Array, limit: number): Promise<number> {
  return new Promise((resolve) => {
    const inflate = zlib.createInflate({ chunkSize: 1 << 20, finishFlush: zlib.constants.Z_SYNC_FLUSH });
    let length = 0;
    let settled = false;
    const done = () => {
      if (settled) return;
      settled = true;
      resolve(length);
    };
    inflate.on('data', (chunk: Buffer) => {
      length += chunk.length;
      if (length > limit) {
        inflate.destroy();
        done();
      }
    });
    inflate.on('end', done);
    inflate.on('error', done);
    inflate.on('close', done);
    inflate.end(data);
  });
}

function mb(bytes: number): number {
  return Math.round(bytes / (1024 * 1024));
}
