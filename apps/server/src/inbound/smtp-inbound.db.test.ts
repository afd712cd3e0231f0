import fs from 'node:fs/promises';
import type { AddressInfo } from 'node:net';
import os from 'node:os';
import path from 'node:path';
import { Readable } from 'node:stream';
import nodemailer from 'nodemailer';
import type { SMTPServer } from 'smtp-server';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { bearer, buildAuthTestApp, signUpThroughApi } from '../../test/auth-app';
import { useTestDatabase } from '../../test/db';
import { AccountsRepository } from '../accounts/accounts.repository';
import { AccountsService } from '../accounts/accounts.service';
import { MailImportService } from '../imports/mail-import.service';
import { IngestService } from '../invoices/ingest.service';
import { PgBlobStore } from '../invoices/pg-blob.store';
import { JobsRepository } from '../jobs/jobs.repository';
import { UploadsService } from '../uploads/uploads.service';
import { UsersRepository } from '../users/users.repository';
import { UsersService } from '../users/users.service';
import { inboundRoutes } from './inbound.routes';
import { InboundAddressService } from './inbound-address.service';
import { createInboundSmtpServer, type InboundDelivery } from './smtp-inbound.server';

const t = useTestDatabase();
const DOMAIN = 'in.invoicebox.test';

/** No DNS in tests: every SPF/DKIM/DMARC lookup finds nothing, as for a domain without records. */
const noDns = async () => {
  throw Object.assign(new Error('no such domain'), { code: 'ENOTFOUND' });
};

async function listen(server: SMTPServer): Promise<number> {
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', () => resolve()));
  return (server.server.address() as AddressInfo).port;
}

function closeServer(server: SMTPServer): Promise<void> {
  return new Promise((resolve) => server.close(() => resolve()));
}

describe('invoice address: SMTP listener and Settings calls', () => {
  let harness: Awaited<ReturnType<typeof buildAuthTestApp>>;
  let addresses: InboundAddressService;
  let imports: MailImportService;
  let uploads: UploadsService;
  let server: SMTPServer;
  let port = 0;
  let dataDir = '';
  const people: Array<{ id: string; token: string }> = [];
  const delivered: InboundDelivery[] = [];

  beforeAll(async () => {
    const { db } = t().database;
    dataDir = await fs.mkdtemp(path.join(os.tmpdir(), 'invoicebox-inbound-'));
    const accounts = new AccountsService(new AccountsRepository(db));
    const ingest = new IngestService(db, new PgBlobStore(db, 'documents'), { extract: async () => null });
    imports = new MailImportService(
      db,
      new PgBlobStore(db, 'uploads'),
      dataDir,
      1024 * 1024,
      new UsersService(new UsersRepository(db)),
      accounts,
      ingest,
    );
    addresses = new InboundAddressService(db, DOMAIN);
    uploads = new UploadsService(
      db,
      new UsersService(new UsersRepository(db)),
      accounts,
      ingest,
      new JobsRepository(db),
      {
        maxBytes: 1024 * 1024,
      },
    );
    harness = await buildAuthTestApp(db, { routes: [inboundRoutes(addresses)], auth: { allowSignup: true } });
    for (const email of ['ana@example.com', 'bo@example.com']) {
      const signup = await signUpThroughApi(harness.app, email);
      people.push({ id: signup.userId, token: signup.token });
    }
    // As in the runtime: an accepted mail becomes an upload and an import of its person (run here at once).
    server = createInboundSmtpServer({
      domain: DOMAIN,
      maxBytes: 256 * 1024,
      messagesPerMinute: 1000,
      addresses,
      resolver: noDns,
      deliver: async (delivery) => {
        delivered.push(delivery);
        const uploadId = await imports.receive(delivery.ownerId, Readable.from([delivery.raw]));
        await imports.run(delivery.ownerId, uploadId, delivery.address);
      },
      log: () => undefined,
    });
    port = await listen(server);
  });
  afterAll(async () => {
    await closeServer(server);
    await harness.app.close();
    await fs.rm(dataDir, { recursive: true, force: true });
  });

  const transport = () =>
    nodemailer.createTransport({
      host: '127.0.0.1',
      port,
      secure: false,
      ignoreTLS: true,
      tls: { rejectUnauthorized: false },
    });
  const addressOf = async (person: { token: string }) => {
    const response = await harness.app.inject({
      method: 'GET',
      url: '/api/v1/settings/inbound-address',
      headers: bearer(person.token),
    });
    expect(response.statusCode).toBe(200);
    return response.json() as { enabled: boolean; address: string };
  };
  const invoicesOf = async (ownerId: string) =>
    (
      await t().database.pool.query<{ n: number }>('select count(*)::int as n from invoices where owner_id = $1', [
        ownerId,
      ])
    ).rows[0]?.n;
  const invoiceMail = (to: string, n: number, size = 2000) => ({
    from: 'Billing <billing@vendor.example>',
    to,
    subject: `Invoice ${n}`,
    text: `Your invoice ${n} is attached.`,
    attachments: [
      {
        filename: `invoice-${n}.pdf`,
        content: Buffer.concat([Buffer.from(`%PDF-1.4 invoice ${n}\n`), Buffer.alloc(size, 32)]),
      },
    ],
  });

  it('gives each person one stable address of their own on the configured domain', async () => {
    const [ana, bo] = [people[0]!, people[1]!];
    const first = await addressOf(ana);
    expect(first.enabled).toBe(true);
    expect(first.address).toMatch(/^invoices\+[0-9a-f]{20}@in\.invoicebox\.test$/);
    expect((await addressOf(ana)).address).toBe(first.address);
    expect((await addressOf(bo)).address).not.toBe(first.address);
  });

  it("accepts a mail for a person's address and imports it as theirs, under the §5 rules, once", async () => {
    const [ana, bo] = [people[0]!, people[1]!];
    const { address } = await addressOf(ana);
    const info = await transport().sendMail(invoiceMail(address, 1));
    expect(info.accepted).toEqual([address]);
    expect(delivered.at(-1)).toMatchObject({ ownerId: ana.id, address });
    // SPF/DKIM/DMARC results are recorded on the message itself, as an MTA would.
    const head = delivered.at(-1)?.raw.toString('utf8').split('\r\n\r\n')[0] ?? '';
    expect(head).toMatch(/^Received-SPF: none \(in\.invoicebox\.test: /);
    expect(head).toMatch(/\r\nAuthentication-Results: in\.invoicebox\.test;[\s\S]*spf=none[\s\S]*dmarc=none/);

    expect(await invoicesOf(ana.id)).toBe(1);
    expect(await invoicesOf(bo.id)).toBe(0);
    // Settings lists what arrived, invoice or not (how a person reads Gmail's forwarding confirmation).
    await transport().sendMail({
      from: 'Gmail Team <forwarding-noreply@google.com>',
      to: address,
      subject: '(#123456789) Gmail Forwarding Confirmation',
      text: 'Confirmation code: 123456789',
    });
    const seen = (await addressOf(ana)) as unknown as { recent: Array<{ subject: string; is_invoice: boolean }> };
    expect(seen.recent.map((r) => [r.subject, r.is_invoice])).toEqual([
      ['(#123456789) Gmail Forwarding Confirmation', false],
      ['Invoice 1', true],
    ]);
    expect(((await addressOf(bo)) as unknown as { recent: unknown[] }).recent).toEqual([]);
    // The same mail again (a resend) is still one invoice.
    await transport().sendMail(invoiceMail(address, 1));
    expect(await invoicesOf(ana.id)).toBe(1);
    // And the same PDF added by upload is that document too: one ingest whichever way it came.
    const pdf = path.join(dataDir, 'invoice-1.pdf');
    const bytes = invoiceMail(address, 1).attachments[0]!.content;
    await fs.writeFile(pdf, bytes);
    const added = await uploads.add(ana.id, [{ name: 'invoice-1.pdf', path: pdf, size: bytes.length }], 'upload');
    expect(added.files.map((f) => f.status)).toEqual(['duplicate']);
    expect(await invoicesOf(ana.id)).toBe(1);
  });

  it('refuses unknown addresses of its domain and every other domain (never a relay)', async () => {
    const stranger = `invoices+${'0'.repeat(20)}@${DOMAIN}`;
    await expect(transport().sendMail(invoiceMail(stranger, 2))).rejects.toMatchObject({ responseCode: 550 });
    await expect(transport().sendMail(invoiceMail(`postmaster@${DOMAIN}`, 2))).rejects.toMatchObject({
      responseCode: 550,
    });
    const relay = transport().sendMail(invoiceMail('someone@elsewhere.example', 2));
    await expect(relay).rejects.toMatchObject({ responseCode: 550 });
    await expect(relay).rejects.toThrow(/Relaying denied/);
    expect(delivered.filter((d) => d.raw.includes('Invoice 2'))).toEqual([]);
  });

  it('delivers only to the known recipient of a mail that names a stranger too', async () => {
    const ana = people[0]!;
    const { address } = await addressOf(ana);
    const info = await transport().sendMail({ ...invoiceMail(address, 3), cc: 'victim@elsewhere.example' });
    expect(info.accepted).toEqual([address]);
    expect(info.rejected).toEqual(['victim@elsewhere.example']);
    expect(await invoicesOf(ana.id)).toBe(2);
  });

  it('refuses a message over the size limit and stores nothing of it', async () => {
    const ana = people[0]!;
    const { address } = await addressOf(ana);
    const before = delivered.length;
    await expect(transport().sendMail(invoiceMail(address, 4, 400 * 1024))).rejects.toMatchObject({
      responseCode: 552,
    });
    expect(delivered.length).toBe(before);
  });

  it('refuses the old address after "New address", and the new one works', async () => {
    const bo = people[1]!;
    const old = (await addressOf(bo)).address;
    const response = await harness.app.inject({
      method: 'POST',
      url: '/api/v1/settings/inbound-address/rotate',
      headers: bearer(bo.token),
    });
    expect(response.statusCode).toBe(200);
    const fresh = response.json().address as string;
    expect(fresh).not.toBe(old);
    expect((await addressOf(bo)).address).toBe(fresh);
    await expect(transport().sendMail(invoiceMail(old, 5))).rejects.toMatchObject({ responseCode: 550 });
    await transport().sendMail(invoiceMail(fresh, 5));
    expect(await invoicesOf(bo.id)).toBe(1);
  });

  it('slows a sender down past its messages per minute', async () => {
    const limited = createInboundSmtpServer({
      domain: DOMAIN,
      maxBytes: 256 * 1024,
      messagesPerMinute: 2,
      addresses,
      resolver: noDns,
      deliver: async () => undefined,
      log: () => undefined,
    });
    const limitedPort = await listen(limited);
    try {
      const { address } = await addressOf(people[0]!);
      const send = () =>
        nodemailer
          .createTransport({ host: '127.0.0.1', port: limitedPort, secure: false, ignoreTLS: true })
          .sendMail(invoiceMail(address, 6));
      await send();
      await send();
      await expect(send()).rejects.toMatchObject({ responseCode: 421 });
    } finally {
      await closeServer(limited);
    }
  });

  it('says the listener is off when the operator has not configured it', async () => {
    const off = new InboundAddressService(t().database.db, undefined);
    expect(await off.current(people[0]!.id)).toEqual({ enabled: false, address: null, created_at: null, recent: [] });
    expect(await off.resolve(`invoices+${'0'.repeat(20)}@${DOMAIN}`)).toBe('relay');
  });
});
