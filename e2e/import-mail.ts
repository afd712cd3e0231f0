import fs from 'node:fs/promises';
import path from 'node:path';
import { type APIRequestContext, expect } from '@playwright/test';
import { buildMail } from '../apps/server/test/mail/mail-builder';

/** One invoice mail to import: its sender, subject and Message-ID, and the PDF it carries. */
export interface InvoiceMail {
  from: string;
  subject: string;
  messageId: string;
  pdf: string;
  filename?: string;
}

/**
 * Imports one invoice mail as the signed-in person through the API (POST /imports/mail) and waits until its job has
 * completed, so the invoice is listed when this returns.
 */
export async function importInvoiceMail(request: APIRequestContext, token: string, mail: InvoiceMail): Promise<void> {
  const auth = { authorization: `Bearer ${token}` };
  const raw = buildMail({
    from: mail.from,
    subject: mail.subject,
    messageId: mail.messageId,
    attachments: [{ filename: mail.filename ?? path.basename(mail.pdf), content: await fs.readFile(mail.pdf) }],
  });
  const started = await request.post('/api/v1/imports/mail', {
    headers: { ...auth, 'content-type': 'message/rfc822' },
    data: raw,
  });
  expect(started.ok()).toBe(true);
  const { job_id } = (await started.json()) as { job_id: string };
  await expect
    .poll(
      async () =>
        ((await (await request.get(`/api/v1/jobs/${job_id}`, { headers: auth })).json()) as { status: string }).status,
      { timeout: 60_000 },
    )
    .toBe('completed');
}
