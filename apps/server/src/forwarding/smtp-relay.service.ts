import type { SmtpRelay, SmtpRelayBody } from '@invoicebox/core';
import { eq, sql } from 'drizzle-orm';
import type { SecretBox } from '../auth/secret-box';
import type { Db } from '../db/client';
import { ValidationError } from '../errors';
import { ConnectionFailedError, classifyAddress, type OutboundPolicy, resolveTarget } from '../net/outbound';
import { forwardingSmtpRelays } from './forwarding.tables';
import { parseRecipient } from './recipients';
import { type SmtpRelaySettings, SmtpSender } from './smtp.sender';

const PASSWORD_CONTEXT = 'forwarding_smtp_relays.password';
const RELAY_UNREACHABLE =
  'Could not connect and sign in to the SMTP server: check the server, port, security, user name and password. ' +
  'Servers on this machine or a private network can be used only where the operator allows them.';

/**
 * A person's own SMTP relay for forwarding (Settings): tried (connect, TLS, sign-in) before it is saved, like the
 * WebDAV drive; the password is stored encrypted and never returned. The host is the person's: it is resolved and
 * checked (net/outbound) before every connection, and the socket goes only to the checked address.
 */
export class SmtpRelayService {
  constructor(
    private readonly db: Db,
    private readonly box: SecretBox,
    private readonly outbound: OutboundPolicy,
    private readonly verify: (settings: SmtpRelaySettings) => Promise<void> = async (settings) => {
      const sender = new SmtpSender('smtp', { ...settings, timeoutSeconds: 15 });
      try {
        await sender.verify();
      } finally {
        await sender.close();
      }
    },
  ) {}

  async get(ownerId: string): Promise<SmtpRelay | null> {
    const [row] = await this.db.select().from(forwardingSmtpRelays).where(eq(forwardingSmtpRelays.ownerId, ownerId));
    return row ? { host: row.host, port: row.port, tls: row.tls, username: row.username, from: row.fromAddress } : null;
  }

  async save(ownerId: string, body: SmtpRelayBody): Promise<SmtpRelay> {
    const from = parseRecipient(body.from || body.username);
    if (!from) throw new ValidationError('The From address must be an email address (or the user name one)');
    try {
      await this.verify(await this.connectable({ ...body, user: body.username, from }));
    } catch (error) {
      if (error instanceof ValidationError) throw error;
      // One answer for a refused port, a time-out, another protocol, a refused sign-in and a target not allowed.
      throw new ConnectionFailedError(RELAY_UNREACHABLE, error);
    }
    const values = {
      host: body.host,
      port: body.port,
      tls: body.tls,
      username: body.username,
      passwordEncrypted: this.box.encrypt(body.password, PASSWORD_CONTEXT),
      fromAddress: from,
    };
    await this.db
      .insert(forwardingSmtpRelays)
      .values({ ownerId, ...values })
      .onConflictDoUpdate({ target: forwardingSmtpRelays.ownerId, set: { ...values, updatedAt: sql`now()` } });
    return (await this.get(ownerId))!;
  }

  async remove(ownerId: string): Promise<{ relay: null }> {
    await this.db.delete(forwardingSmtpRelays).where(eq(forwardingSmtpRelays.ownerId, ownerId));
    return { relay: null };
  }

  /** The saved relay, ready to connect (its host checked again now); undefined when the person has none. */
  async settings(ownerId: string): Promise<SmtpRelaySettings | undefined> {
    const [row] = await this.db.select().from(forwardingSmtpRelays).where(eq(forwardingSmtpRelays.ownerId, ownerId));
    if (!row) return undefined;
    return this.connectable({
      host: row.host,
      port: row.port,
      tls: row.tls,
      user: row.username,
      password: this.box.decrypt(row.passwordEncrypted, PASSWORD_CONTEXT),
      from: row.fromAddress,
    });
  }

  /** Resolves and checks the host; a relay without TLS is allowed only on this machine or a private network. */
  private async connectable(settings: SmtpRelaySettings): Promise<SmtpRelaySettings> {
    const target = await resolveTarget(settings.host, this.outbound);
    const address = target.addresses[0]!.address;
    if (settings.tls === 'none' && classifyAddress(address).verdict !== 'private') {
      throw new ValidationError('An SMTP server without TLS can only be on this machine or a private network');
    }
    return { ...settings, host: address, ...(target.servername ? { servername: target.servername } : {}) };
  }
}
