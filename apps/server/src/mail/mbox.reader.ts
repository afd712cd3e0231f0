/**
 * Streams the messages of an mbox file with bounded memory: the file is read in chunks and split into messages line by
 * line; at most one message (capped at the message limit) and one partial line are held at a time.
 *
 * Splitting: a line starting with `From ` separates messages when it is the first line of the file, follows an empty
 * line, or looks like an envelope line (`From sender Mon Jan  1 10:00:00 2024`, a time in it). Other `From ` lines are
 * body text that an mboxo writer left unescaped. `>From `, `>>From `… lines lose one `>` (mboxrd). The empty line
 * that ends each message belongs to the mbox format and is dropped. LF and CRLF files both work.
 */
import { createReadStream } from 'node:fs';
import { DEFAULT_MAIL_LIMITS } from './mail-limits';
import type { RawMail } from './mail-message';

/** A body line longer than this without a line break is passed on in pieces instead of being held. */
const MAX_PENDING_LINE_BYTES = 64 * 1024;

const FROM_ = Buffer.from('From ', 'latin1');
const ENVELOPE_LINE = /^From \S+ .*\d{1,2}:\d{2}/;

export type MboxPiece =
  | { index: number; offset: number; source: Buffer }
  | { index: number; offset: number; tooLarge: true; size: number };

export class MboxSplitter {
  private pending: Buffer = Buffer.alloc(0);
  /** True while the pending bytes continue a line whose start was already passed on. */
  private midLine = false;
  private parts: Buffer[] = [];
  private size = 0;
  private started = false;
  private index = 0;
  private offset = 0;
  /** Byte offset in the file of the first pending byte. */
  private position = 0;
  private previousBlank = true;
  private atFileStart = true;

  constructor(private readonly maxMessageBytes = DEFAULT_MAIL_LIMITS.maxMessageBytes) {}

  /** Feeds the next chunk of the file; returns the messages it completed. */
  push(chunk: Buffer): MboxPiece[] {
    const out: MboxPiece[] = [];
    const data = this.pending.length ? Buffer.concat([this.pending, chunk]) : chunk;
    let start = 0;
    for (;;) {
      const end = data.indexOf(0x0a, start);
      if (end === -1) break;
      this.line(data.subarray(start, end + 1), out);
      start = end + 1;
    }
    let rest = data.subarray(start);
    if (rest.length > MAX_PENDING_LINE_BYTES) {
      // A very long line (or binary junk with no line breaks): pass it on now, keep only a short tail.
      this.line(rest, out, false);
      rest = Buffer.alloc(0);
    }
    // Copy so the (large) chunk the tail came from can be freed.
    this.pending = Buffer.from(rest);
    return out;
  }

  /** Ends the file; returns the last message. */
  end(): MboxPiece[] {
    const out: MboxPiece[] = [];
    if (this.pending.length) this.line(this.pending, out);
    this.pending = Buffer.alloc(0);
    this.close(out);
    return out;
  }

  private line(line: Buffer, out: MboxPiece[], complete = true): void {
    const lineStart = this.position;
    this.position += line.length;
    const atLineStart = !this.midLine;
    this.midLine = !complete;
    if (atLineStart && this.isSeparator(line)) {
      this.close(out);
      this.started = true;
      this.index += 1;
      this.offset = lineStart;
      this.previousBlank = false;
      this.atFileStart = false;
      return;
    }
    this.atFileStart = false;
    let content = line;
    if (atLineStart && line[0] === 0x3e /* > */) {
      let i = 0;
      while (line[i] === 0x3e) i++;
      if (line.subarray(i, i + 5).equals(FROM_)) content = line.subarray(1);
    }
    if (!this.started) {
      // Bytes before the first envelope line: kept as a message of their own, so junk is reported rather than lost.
      if (isBlank(content)) return;
      this.started = true;
      this.index += 1;
      this.offset = lineStart;
    }
    this.append(content);
    this.previousBlank = atLineStart && complete && isBlank(line);
  }

  private isSeparator(line: Buffer): boolean {
    if (!line.subarray(0, 5).equals(FROM_)) return false;
    if (this.atFileStart || this.previousBlank) return true;
    return ENVELOPE_LINE.test(line.toString('latin1', 0, Math.min(line.length, 512)));
  }

  private append(content: Buffer): void {
    this.size += content.length;
    if (this.size > this.maxMessageBytes) {
      this.parts = [];
      return;
    }
    this.parts.push(content);
  }

  private close(out: MboxPiece[]): void {
    if (!this.started) return;
    if (this.size > this.maxMessageBytes) {
      out.push({ index: this.index, offset: this.offset, tooLarge: true, size: this.size });
    } else {
      const last = this.parts.at(-1);
      if (last && isBlank(last)) this.parts.pop();
      out.push({ index: this.index, offset: this.offset, source: Buffer.concat(this.parts) });
    }
    this.parts = [];
    this.size = 0;
    this.started = false;
  }
}

function isBlank(line: Buffer): boolean {
  return (
    line.length === 0 ||
    (line.length === 1 && line[0] === 0x0a) ||
    (line.length === 2 && line[0] === 0x0d && line[1] === 0x0a)
  );
}

/** The messages of an mbox file, one at a time; `origin` is `path#n`, n counting from 1. */
export async function* readMbox(
  path: string,
  maxMessageBytes = DEFAULT_MAIL_LIMITS.maxMessageBytes,
): AsyncGenerator<RawMail> {
  const splitter = new MboxSplitter(maxMessageBytes);
  const toRaw = (piece: MboxPiece): RawMail =>
    'source' in piece
      ? { ok: true, origin: `${path}#${piece.index}`, source: piece.source }
      : {
          ok: false,
          error: {
            origin: `${path}#${piece.index}`,
            code: 'message_too_large',
            message: `message at byte ${piece.offset} is ${piece.size} bytes, over the ${maxMessageBytes}-byte limit`,
          },
        };
  const stream = createReadStream(path, { highWaterMark: 256 * 1024 });
  for await (const chunk of stream) {
    for (const piece of splitter.push(chunk as Buffer)) yield toRaw(piece);
  }
  for (const piece of splitter.end()) yield toRaw(piece);
}
