import { ImapFlow } from 'imapflow';
import { type OutboundPolicy, resolveTarget } from '../net/outbound';
import type { SentFolder } from './sender';

export interface ImapSentFolderSettings {
  host: string;
  port: number;
  secure: boolean;
  user: string;
  password: string;
  /** The mailbox to search; default: the one marked \Sent (special use), else one named Sent. */
  mailbox?: string | undefined;
  /** A host a person named is checked like every other connection to it; the operator's is not. */
  outbound?: OutboundPolicy | undefined;
}

/** Searches a Sent folder over IMAP (imapflow) with SEARCH HEADER Message-ID; one connection, opened on first use. */
export class ImapSentFolder implements SentFolder {
  private client: ImapFlow | undefined;
  private mailbox: string | undefined;

  constructor(private readonly settings: ImapSentFolderSettings) {}

  async contains(messageId: string): Promise<boolean> {
    const client = await this.open();
    // A fresh view of the mailbox: what the relay filed since the last search counts.
    await client.mailboxOpen(this.mailbox!, { readOnly: true });
    const found = await client.search({ header: { 'message-id': messageId } }, { uid: true });
    return Array.isArray(found) && found.length > 0;
  }

  async close(): Promise<void> {
    const client = this.client;
    this.client = undefined;
    await client?.logout().catch(() => client.close());
  }

  private async open(): Promise<ImapFlow> {
    if (this.client?.usable) return this.client;
    const { host, port, secure, user, password } = this.settings;
    const target = this.settings.outbound ? await resolveTarget(host, this.settings.outbound) : undefined;
    const client = new ImapFlow({
      host: target ? target.addresses[0]!.address : host,
      ...(target?.servername ? { servername: target.servername } : {}),
      port,
      secure,
      auth: { user, pass: password },
      logger: false,
      connectionTimeout: 15_000,
      greetingTimeout: 15_000,
      socketTimeout: 60_000,
      doSTARTTLS: secure ? undefined : false,
    });
    client.on('error', () => {});
    await client.connect();
    if (!this.mailbox) {
      const list = await client.list();
      this.mailbox =
        this.settings.mailbox ??
        list.find((m) => m.specialUse === '\\Sent')?.path ??
        list.find((m) => /^(sent|sent items|sent messages|sent mail)$/i.test(m.name))?.path ??
        'Sent';
    }
    this.client = client;
    return client;
  }
}
