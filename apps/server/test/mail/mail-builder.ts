/** Builds raw test mails (and mboxes of them) in code, so tests state exactly what the bytes are. */
import path from 'node:path';
import { fileURLToPath } from 'node:url';

/** The shared datasets sit beside the repository (CI clones shared/ next to it). */
export const repoRoot = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '../../../..');
export const mailDatasets = path.resolve(repoRoot, '../shared/datasets/mail');

export interface TestAttachment {
  filename: string;
  contentType?: string;
  content: Buffer | string;
  /** How the filename is written: `plain` (name= and filename=), `rfc2231` (filename*=utf-8''…), `rfc2047` (=?utf-8?B?…?=). */
  nameStyle?: 'plain' | 'rfc2231' | 'rfc2047';
  disposition?: 'attachment' | 'inline';
}

export interface TestMail {
  from?: string;
  subject?: string;
  date?: string;
  messageId?: string;
  text?: string;
  attachments?: TestAttachment[];
  eol?: '\n' | '\r\n';
  extraHeaders?: string[];
}

const wrap = (base64: string) => base64.replace(/.{1,76}/g, '$&\n').trimEnd();

function nameParams(attachment: TestAttachment): { type: string; disposition: string } {
  const name = attachment.filename;
  switch (attachment.nameStyle ?? 'plain') {
    case 'rfc2231': {
      // Byte by byte, so that any string (a lone surrogate too) can be written.
      const encoded = [...Buffer.from(name)]
        .map((b) =>
          /[A-Za-z0-9\-_.!~]/.test(String.fromCharCode(b))
            ? String.fromCharCode(b)
            : `%${b.toString(16).toUpperCase().padStart(2, '0')}`,
        )
        .join('');
      return { type: '', disposition: `; filename*=utf-8''${encoded}` };
    }
    case 'rfc2047': {
      const word = `=?utf-8?B?${Buffer.from(name).toString('base64')}?=`;
      return { type: `; name="${word}"`, disposition: `; filename="${word}"` };
    }
    default:
      return { type: `; name="${name}"`, disposition: `; filename="${name}"` };
  }
}

export function buildMail(mail: TestMail = {}): Buffer {
  const eol = mail.eol ?? '\n';
  const boundary = '----=_Part_boundary_42';
  const lines: string[] = [
    `From: ${mail.from ?? 'Acme Billing <billing@acme.com>'}`,
    'To: me@example.org',
    `Subject: ${mail.subject ?? 'Your invoice'}`,
    `Date: ${mail.date ?? 'Mon, 02 Nov 2026 10:00:00 +0100'}`,
    `Message-ID: ${mail.messageId ?? '<msg-1@acme.com>'}`,
    'MIME-Version: 1.0',
    ...(mail.extraHeaders ?? []),
  ];
  const attachments = mail.attachments ?? [];
  const text = mail.text ?? 'Please find your invoice attached.';
  if (attachments.length === 0) {
    lines.push('Content-Type: text/plain; charset=utf-8', '', text);
  } else {
    lines.push(`Content-Type: multipart/mixed; boundary="${boundary}"`, '', `--${boundary}`);
    lines.push('Content-Type: text/plain; charset=utf-8', '', text);
    for (const attachment of attachments) {
      const params = nameParams(attachment);
      const content = typeof attachment.content === 'string' ? Buffer.from(attachment.content) : attachment.content;
      lines.push(
        `--${boundary}`,
        `Content-Type: ${attachment.contentType ?? 'application/octet-stream'}${params.type}`,
        `Content-Disposition: ${attachment.disposition ?? 'attachment'}${params.disposition}`,
        'Content-Transfer-Encoding: base64',
        '',
        wrap(content.toString('base64')),
      );
    }
    lines.push(`--${boundary}--`, '');
  }
  return Buffer.from(lines.join('\n').replace(/\n/g, eol));
}

/** An mboxrd file: an envelope line per message, body `From ` lines (and `>From `) escaped with one more `>`. */
export function buildMbox(messages: Buffer[], eol: '\n' | '\r\n' = '\n'): Buffer {
  const parts = messages.map((message, i) => {
    const escaped = message.toString('latin1').replace(/^(>*From )/gm, '>$1');
    const body = escaped.endsWith(eol) ? escaped : escaped + eol;
    return `From sender${i}@example.com Mon Nov  2 10:00:${String(i % 60).padStart(2, '0')} 2026${eol}${body}${eol}`;
  });
  return Buffer.from(parts.join(''), 'latin1');
}

/** A minimal one-page PDF header: enough for content sniffing, not a readable document. */
export const FAKE_PDF = Buffer.from('%PDF-1.4\n% fake test file\n1 0 obj\n<<>>\nendobj\ntrailer\n<<>>\n%%EOF\n');
/** The 8-byte PNG signature plus a few bytes. */
export const FAKE_PNG = Buffer.from([0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a, 0, 0, 0, 13]);
