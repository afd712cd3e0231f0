/**
 * Parses one raw message into a MailMessage. Never throws: a message that cannot be read at all comes back as an
 * error record, and a bad or oversize part is recorded as skipped while the rest of the message is kept.
 */
import { createHash } from 'node:crypto';
import { type AddressObject, type AttachmentStream, MailParser, type MessageText } from 'mailparser';
import { storableOrNull, storableText } from '../db/storable-text';
import { decodedHeader, decodeUnlabelled, headerBlock, headerFields, rawHeader } from './header-decoding';
import { DEFAULT_MAIL_LIMITS, type MailLimits, SNIPPET_LENGTH } from './mail-limits';
import {
  MAX_BODY_CHARS,
  type MailAddress,
  type MailAttachment,
  type MailMessage,
  type MailReadError,
  type MailReadErrorCode,
  type MailReadResult,
  type SkippedPart,
} from './mail-message';

/** Header fields of which at least one must be present for bytes to count as a mail message. */
const KNOWN_FIELDS = new Set([
  'from',
  'to',
  'cc',
  'subject',
  'date',
  'message-id',
  'content-type',
  'mime-version',
  'received',
  'return-path',
  'sender',
  'reply-to',
  'delivered-to',
]);

export async function parseMailMessage(
  input: Buffer,
  origin: string,
  limits: Partial<MailLimits> = {},
): Promise<MailReadResult> {
  const { maxMessageBytes, maxAttachmentBytes, maxHeaderBytes } = { ...DEFAULT_MAIL_LIMITS, ...limits };
  const fail = (code: MailReadErrorCode, message: string): MailReadResult => ({
    ok: false,
    error: { origin: storableText(origin), code, message: storableText(message) },
  });
  try {
    if (input.length > maxMessageBytes) {
      return fail('message_too_large', `message is ${input.length} bytes, over the ${maxMessageBytes}-byte limit`);
    }
    const source = stripEnvelopeLine(input);
    if (source.toString('latin1').trim() === '') return fail('empty_message', 'the message is empty');

    const problem = checkLooksLikeMail(source, maxHeaderBytes);
    if (problem) return fail(problem.code, problem.message);

    const parsed = await runParser(source, { maxAttachmentBytes, maxHeaderBytes });
    if (parsed.error && !parsed.headersSeen) {
      const code = (parsed.error as { code?: string }).code === 'EMAXLEN' ? 'header_too_large' : 'parse_failed';
      return fail(code, parsed.error.message);
    }
    if (parsed.error) {
      // The headers and the parts read so far are kept; the rest of the message is reported as one malformed part.
      parsed.skippedParts.push({
        filename: null,
        contentType: null,
        size: 0,
        reason: 'malformed',
        detail: `the rest of the message could not be parsed: ${parsed.error.message}`,
      });
    }
    const message: MailMessage = {
      origin,
      messageId: readMessageId(source),
      from: readFrom(parsed.from),
      subject: decodedHeader(source, 'subject'),
      date: readDate(source),
      textSnippet: snippet(parsed.text),
      body: {
        html: parsed.html ? parsed.html.slice(0, MAX_BODY_CHARS) : null,
        text: parsed.text.slice(0, MAX_BODY_CHARS),
      },
      attachments: parsed.attachments,
      skippedParts: parsed.skippedParts,
    };
    return { ok: true, message: storableMessage(message) };
  } catch (error) {
    return fail('parse_failed', error instanceof Error ? error.message : String(error));
  }
}

/**
 * The boundary where mail becomes data: every text of the message is made storable here (a NUL in an encoded word or
 * an RFC 2231 file name, a lone surrogate from a UTF-16 charset), so no reader, store or error message downstream
 * meets one.
 */
function storableMessage(message: MailMessage): MailMessage {
  const address = (a: MailAddress | null): MailAddress | null =>
    a && { name: storableOrNull(a.name), address: storableOrNull(a.address) };
  return {
    origin: storableText(message.origin),
    messageId: storableOrNull(message.messageId),
    from: address(message.from),
    subject: storableOrNull(message.subject),
    date: message.date,
    textSnippet: storableText(message.textSnippet),
    ...(message.body
      ? { body: { html: storableOrNull(message.body.html), text: storableText(message.body.text) } }
      : {}),
    attachments: message.attachments.map((a) => ({
      ...a,
      filename: storableText(a.filename) || 'attachment',
      contentType: storableText(a.contentType),
    })),
    skippedParts: message.skippedParts.map((p) => ({
      ...p,
      filename: storableOrNull(p.filename),
      contentType: storableOrNull(p.contentType),
      detail: storableText(p.detail),
    })),
  };
}

/** A single .eml saved by some tools starts with the mbox "From " envelope line; it is not a header. */
function stripEnvelopeLine(source: Buffer): Buffer {
  if (source.subarray(0, 5).toString('latin1') !== 'From ') return source;
  const end = source.indexOf(0x0a);
  return end === -1 ? Buffer.alloc(0) : source.subarray(end + 1);
}

function checkLooksLikeMail(source: Buffer, maxHeaderBytes: number): Omit<MailReadError, 'origin'> | null {
  const block = headerBlock(source, maxHeaderBytes);
  if (block.length >= maxHeaderBytes && source.length > maxHeaderBytes) {
    return { code: 'header_too_large', message: `no end of the header block within ${maxHeaderBytes} bytes` };
  }
  if (block.includes(0)) return { code: 'not_a_message', message: 'the header block holds binary data' };
  const firstLine = block.toString('latin1', 0, Math.min(block.length, 1000)).split(/\r?\n/, 1)[0] ?? '';
  const fields = headerFields(block);
  if (!/^[!-9;-~]+[ \t]*:/.test(firstLine) || !fields.some((field) => KNOWN_FIELDS.has(field.name))) {
    return { code: 'not_a_message', message: 'no mail header found at the start' };
  }
  return null;
}

interface ParserOutput {
  headersSeen: boolean;
  from: AddressObject | undefined;
  text: string;
  html: string;
  attachments: MailAttachment[];
  skippedParts: SkippedPart[];
  error: Error | undefined;
}

/** The part of mailparser's internal MIME tree node that the patch below reads and writes. */
interface ParserTreeNode {
  node: { filename?: string | false };
  contentType?: string;
  isAttachment?: boolean;
}

/**
 * mailparser folds inline text parts into the body even when they carry a filename (a .txt or .html a client
 * attached inline). We want every leaf with a filename as an attachment, so such leaves are marked as attachments as
 * the parser builds its tree. createNode is internal to mailparser 3.x; should it disappear, the patch is skipped and
 * those few parts stay in the body text.
 */
function keepNamedTextLeaves(parser: MailParser): void {
  const internal = parser as unknown as { createNode?: (node: unknown) => ParserTreeNode };
  const original = internal.createNode;
  if (typeof original !== 'function') return;
  internal.createNode = (node: unknown) => {
    const created = original.call(parser, node);
    if (created.isAttachment === false && created.node.filename) created.isAttachment = true;
    return created;
  };
}

function runParser(source: Buffer, limits: { maxAttachmentBytes: number; maxHeaderBytes: number }) {
  return new Promise<ParserOutput>((resolve) => {
    const output: ParserOutput = {
      headersSeen: false,
      from: undefined,
      text: '',
      html: '',
      attachments: [],
      skippedParts: [],
      error: undefined,
    };
    const parser = new MailParser({
      skipHtmlToText: true,
      skipTextToHtml: true,
      skipTextLinks: true,
      skipImageLinks: true,
      checksumAlgo: false,
      maxHeadSize: limits.maxHeaderBytes,
    });
    keepNamedTextLeaves(parser);

    let settled = false;
    /** Set while an attachment is being read: abandons it as malformed. */
    let inFlight: ((problem: Error) => void) | undefined;
    /** Set after a parser error while a part was in flight: called once that part has ended. */
    let waitForPart: (() => void) | undefined;
    const settle = (error?: Error) => {
      if (settled) return;
      settled = true;
      output.error = error;
      output.from = parser.from;
      resolve(output);
    };
    parser.on('headers', () => {
      output.headersSeen = true;
    });
    parser.on('error', (error: Error) => {
      // The parser may still be delivering the part before the fault: let its stream end first, within a moment.
      if (!inFlight) {
        settle(error);
        return;
      }
      const giveUp = setTimeout(() => {
        inFlight?.(error);
        settle(error);
      }, 50);
      waitForPart = () => {
        clearTimeout(giveUp);
        settle(error);
      };
    });
    parser.on('end', () => settle());

    let reading = false;
    const read = (): void => {
      reading = true;
      const data = parser.read() as AttachmentStream | MessageText | null;
      if (data === null) {
        reading = false;
        return;
      }
      if (data.type === 'text') {
        output.text = data.text?.trim() ? data.text : htmlToPlain(data.html ?? '');
        output.html = typeof data.html === 'string' ? data.html : '';
        read();
        return;
      }
      inFlight = collectAttachment(data, limits.maxAttachmentBytes, output, () => {
        inFlight = undefined;
        if (waitForPart) {
          waitForPart();
          return;
        }
        data.release?.();
        read();
      });
    };
    parser.on('readable', () => {
      if (!reading) read();
    });
    parser.end(source);
  });
}

/**
 * Reads one attachment stream, keeping it only when it has a filename and fits the limit. Returns a function that
 * abandons the part as malformed (when the parser fails before the part ends).
 */
function collectAttachment(
  attachment: AttachmentStream,
  maxBytes: number,
  output: ParserOutput,
  done: () => void,
): (problem: Error) => void {
  const filename = attachment.filename?.trim() || null;
  const hash = createHash('sha256');
  const chunks: Buffer[] = [];
  let size = 0;
  let finished = false;
  const finish = (problem?: Error) => {
    if (finished) return;
    finished = true;
    if (filename && problem) {
      output.skippedParts.push({
        filename,
        contentType: attachment.contentType,
        size,
        reason: 'malformed',
        detail: problem.message,
      });
    } else if (filename && size > maxBytes) {
      output.skippedParts.push({
        filename,
        contentType: attachment.contentType,
        size,
        reason: 'too_large',
        detail: `${size} bytes, over the ${maxBytes}-byte attachment limit`,
      });
    } else if (filename) {
      output.attachments.push({
        filename,
        contentType: attachment.contentType,
        size,
        sha256: hash.digest('hex'),
        content: Buffer.concat(chunks, size),
      });
    }
    done();
  };
  attachment.content.on('data', (chunk: Buffer) => {
    size += chunk.length;
    // Unnamed parts and parts past the limit are drained, not kept.
    if (!filename || size > maxBytes) {
      chunks.length = 0;
      return;
    }
    hash.update(chunk);
    chunks.push(chunk);
  });
  attachment.content.on('end', () => finish());
  attachment.content.on('error', (error: Error) => finish(error));
  return (problem) => finish(problem);
}

function readMessageId(source: Buffer): string | null {
  const raw = rawHeader(source, 'message-id');
  if (!raw) return null;
  const value = decodeUnlabelled(raw).trim();
  const bracketed = /<[^<>\s]+>/.exec(value);
  if (bracketed) return bracketed[0];
  const token = value.split(/\s+/)[0];
  return token ? `<${token}>` : null;
}

function readDate(source: Buffer): string | null {
  const value = decodedHeader(source, 'date');
  if (!value) return null;
  // Comments such as "(PDT)" or "(GMT+02:00)" are not part of the date.
  const cleaned = value
    .replace(/\([^)]*\)/g, ' ')
    .replace(/\s+/g, ' ')
    .trim();
  const time = Date.parse(cleaned);
  return Number.isNaN(time) ? null : new Date(time).toISOString();
}

function readFrom(from: AddressObject | undefined): MailAddress | null {
  const addresses = (from?.value ?? []).flatMap((entry) => (entry.group ? entry.group : [entry]));
  const first = addresses.find((entry) => entry.address) ?? addresses[0];
  if (!first) return null;
  const name = first.name?.trim() || null;
  const address = first.address?.trim() || null;
  return name || address ? { name, address } : null;
}

function htmlToPlain(html: string): string {
  return html
    .replace(/<(script|style|head)[\s\S]*?<\/\1>/gi, ' ')
    .replace(/<[^>]*>/g, ' ')
    .replace(/&nbsp;/gi, ' ')
    .replace(/&amp;/gi, '&')
    .replace(/&lt;/gi, '<')
    .replace(/&gt;/gi, '>')
    .replace(/&quot;/gi, '"')
    .replace(/&#39;/g, "'");
}

function snippet(text: string): string {
  return text.replace(/\s+/g, ' ').trim().slice(0, SNIPPET_LENGTH);
}
