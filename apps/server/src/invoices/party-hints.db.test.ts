import fs from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import { eq } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { useTestDatabase } from '../../test/db';
import { buildMail } from '../../test/mail/mail-builder';
import { AccountsRepository } from '../accounts/accounts.repository';
import { AccountsService } from '../accounts/accounts.service';
import { mailAccounts } from '../accounts/accounts.tables';
import { users } from '../db/schema';
import type { FieldExtractInput } from '../mail/field-extractor';
import { LocalBlobStore } from './blob.store';
import { IngestService } from './ingest.service';
import { ownPartyHints } from './party-hints';

const t = useTestDatabase();

describe("the person's own names and the sender reach the field rules", () => {
  let dir: string;
  let ownerId: string;
  let accountId: string;

  beforeAll(async () => {
    const { db } = t().database;
    dir = await fs.mkdtemp(path.join(os.tmpdir(), 'invoicebox-hints-'));
    const [owner] = await db
      .insert(users)
      .values({ email: 'olive@nordlicht-consulting.de', displayName: 'Nordlicht Consulting GmbH' })
      .returning();
    ownerId = owner!.id;
    const accounts = new AccountsService(new AccountsRepository(db));
    accountId = (
      await accounts.connect(ownerId, {
        provider: 'imap',
        email: 'Books@Nordlicht.example',
        displayName: 'Olive Owner',
      })
    ).userId;
    // The sample mailbox is not the person's: its address must not hide a sample vendor.
    const sample = await accounts.connect(ownerId, { provider: 'mbox', email: 'sample@vendor-sample.example' });
    await db.update(mailAccounts).set({ isSample: true }).where(eq(mailAccounts.id, sample.userId));
  });
  afterAll(async () => {
    await fs.rm(dir, { recursive: true, force: true });
  });

  it('reads the profile and the connected mailboxes, not the sample one', async () => {
    const hints = await ownPartyHints(t().database.db, ownerId);
    expect(hints.ownNames?.sort()).toEqual(['Nordlicht Consulting GmbH', 'Olive Owner']);
    expect(hints.ownEmails?.sort()).toEqual(['books@nordlicht.example', 'olive@nordlicht-consulting.de']);
  });

  it('hands them to the extractor with the sender of each mail', async () => {
    const seen: FieldExtractInput[] = [];
    const ingest = new IngestService(t().database.db, new LocalBlobStore(dir), {
      extract: async (input) => {
        seen.push(input);
        return null;
      },
    });
    async function* mails() {
      yield {
        ok: true as const,
        origin: 'hint-1',
        source: buildMail({
          from: 'Kontorwerk <Rechnung@Kontorwerk.de>',
          subject: 'Rechnung 2024-117',
          messageId: '<hint-1@kontorwerk.de>',
          attachments: [{ filename: 'rechnung.pdf', content: Buffer.from('%PDF-1.4 hint') }],
        }),
      };
    }
    await ingest.ingest(ownerId, accountId, mails());
    expect(seen).toHaveLength(1);
    expect(seen[0]!.hints).toMatchObject({
      senderEmail: expect.stringMatching(/^rechnung@kontorwerk\.de$/i),
      ownNames: expect.arrayContaining(['Nordlicht Consulting GmbH']),
      ownEmails: expect.arrayContaining(['books@nordlicht.example']),
    });
  });
});
