import { randomUUID } from 'node:crypto';
import { AccountsRepository } from '../src/accounts/accounts.repository';
import { AccountsService } from '../src/accounts/accounts.service';
import type { SmtpConfig } from '../src/config';
import type { Db } from '../src/db/client';
import { users } from '../src/db/schema';
import { ForwardingRepository } from '../src/forwarding/forwarding.repository';
import { type ForwardingHooks, ForwardingService } from '../src/forwarding/forwarding.service';
import { createSenderFactory } from '../src/forwarding/sender.factory';
import type { BlobStore } from '../src/invoices/blob.store';
import { IngestService } from '../src/invoices/ingest.service';
import type { ProviderAccessService } from '../src/oidc/provider-access.service';
import { buildMail } from './mail/mail-builder';

/** Dovecot users of the forwarding tests: the relay's own account (its Sent folder) and three recipients. */
export const FORWARDING_USERS = {
  relay: 'relay-secret',
  books: 'books-secret',
  audit: 'audit-secret',
  tax: 'tax-secret',
};
export const RECIPIENTS = ['books@mailbox.test', 'audit@mailbox.test', 'tax@mailbox.test'];

/** Fields as if read from the document: the cover mail's subject shows them. */
const extractor = {
  extract: async ({ filename }: { filename: string }) => ({
    vendor: `Vendor ${filename.replace(/\D/g, '')}`,
    amount: 12.5,
    currency: 'EUR',
    invoice_date: '2026-03-01',
    invoice_number: filename,
  }),
};

/** The n-th invoice email: a unique PDF (so a unique invoice), CRLF line ends as SMTP carries them. */
export function invoiceMail(n: number, tag = 'fwd'): Buffer {
  return buildMail({
    from: `Vendor ${n} <billing${n}@vendor.example>`,
    subject: `Invoice ${n}`,
    messageId: `<${tag}-invoice-${n}@vendor.example>`,
    eol: '\r\n',
    attachments: [
      {
        filename: `invoice-${n}.pdf`,
        contentType: 'application/pdf',
        content: Buffer.from(`%PDF-1.4\n% invoice ${tag} ${n}\n%%EOF\n`),
      },
    ],
  });
}

export function smtpConfigFor(relayPort: number, imapPort: number): SmtpConfig {
  return {
    host: '127.0.0.1',
    port: relayPort,
    tls: 'none',
    user: 'relay',
    password: FORWARDING_USERS.relay,
    from: 'relay@localhost',
    sentImapUrl: `imap://relay:${FORWARDING_USERS.relay}@127.0.0.1:${imapPort}/Sent`,
  };
}

/** The forwarding service over a database and blob store, sending through an SMTP relay (no Google accounts). */
export function forwardingService(
  db: Db,
  blobs: BlobStore,
  smtp: SmtpConfig | undefined,
  options: { hooks?: ForwardingHooks; backoffBaseMs?: number } = {},
) {
  const accounts = new AccountsService(new AccountsRepository(db));
  const providerAccess = {} as ProviderAccessService; // only Google accounts use it; these tests have none
  const forwarding = new ForwardingService(
    new ForwardingRepository(db),
    accounts,
    blobs,
    createSenderFactory({ accounts, providerAccess, smtp }),
    { jobType: 'invoice_forwarding', ...options },
  );
  return { forwarding, accounts };
}

/** A person with one imported-mail account holding `count` invoice emails. */
export async function seedInvoices(
  db: Db,
  blobs: BlobStore,
  count: number,
  tag = 'fwd',
): Promise<{ ownerId: string; accountId: string; ingest: IngestService }> {
  const [owner] = await db
    .insert(users)
    .values({ email: `owner-${randomUUID().slice(0, 8)}@example.com`, displayName: 'Owner' })
    .returning();
  const accounts = new AccountsService(new AccountsRepository(db));
  const accountId = (await accounts.connect(owner!.id, { provider: 'mbox', email: 'me@example.org' })).userId;
  const ingest = new IngestService(db, blobs, extractor);
  await addInvoices(ingest, owner!.id, accountId, 1, count, tag);
  return { ownerId: owner!.id, accountId, ingest };
}

export async function addInvoices(
  ingest: IngestService,
  ownerId: string,
  accountId: string,
  from: number,
  count: number,
  tag = 'fwd',
): Promise<void> {
  async function* mails() {
    for (let n = from; n < from + count; n++) {
      yield { ok: true as const, origin: `${tag}-${n}`, source: invoiceMail(n, tag) };
    }
  }
  await ingest.ingest(ownerId, accountId, mails(), { attachmentsRequired: true });
}
