import { promises as dns } from 'node:dns';
import { authenticate, type DNSResolver } from 'mailauth';
import { SMTPServer, type SMTPServerOptions, type SMTPServerSession } from 'smtp-server';
import type { InboundAddressService, InboundRecipient } from './inbound-address.service';

/** A mail accepted for one person: the bytes as received, with our Authentication-Results on top. */
export interface InboundDelivery {
  ownerId: string;
  /** The person's address it was sent to (the mailbox it is shown as). */
  address: string;
  raw: Buffer;
}

export interface InboundSmtpOptions {
  /** SMTP_INBOUND_DOMAIN: the only domain mail is accepted for (never a relay). */
  domain: string;
  /** Largest message accepted (announced with SIZE; a bigger one is refused with 552). */
  maxBytes: number;
  /** Messages per client address per minute; past it, 421 "try later". */
  messagesPerMinute: number;
  addresses: InboundAddressService;
  /** Hands an accepted mail to the import (a mail_import job); a rejection makes the sender try again later. */
  deliver: (delivery: InboundDelivery) => Promise<void>;
  /** STARTTLS when both are given (PEM). */
  tls?: { key: Buffer; cert: Buffer } | undefined;
  /** DNS for SPF/DKIM/DMARC (default: the system's, each lookup limited to a few seconds). */
  resolver?: DNSResolver;
  log: (level: 'info' | 'warn', message: string, detail?: Record<string, unknown>) => void;
}

/** An SMTP reply with its code, as smtp-server sends it. */
function reply(code: number, message: string): Error & { responseCode: number } {
  return Object.assign(new Error(message), { responseCode: code });
}

const DNS_TIMEOUT_MS = 5_000;

/** The system's DNS with a time limit: a slow resolver must not hold a sender's connection open. */
const systemResolver: DNSResolver = async (domain, rrtype) => {
  const lookup = dns.resolve(domain, rrtype) as Promise<string[][] | string[]>;
  let timer: NodeJS.Timeout | undefined;
  const timeout = new Promise<never>((_, reject) => {
    timer = setTimeout(
      () => reject(Object.assign(new Error(`DNS timeout for ${domain}`), { code: 'ETIMEOUT' })),
      DNS_TIMEOUT_MS,
    );
  });
  try {
    return await Promise.race([lookup, timeout]);
  } finally {
    clearTimeout(timer);
  }
};

/** Counts per client address in a sliding minute; small and per process (each listener guards itself). */
class PerMinute {
  private readonly seen = new Map<string, number[]>();
  constructor(private readonly limit: number) {}
  take(key: string): boolean {
    const now = Date.now();
    const recent = (this.seen.get(key) ?? []).filter((t) => now - t < 60_000);
    if (recent.length >= this.limit) {
      this.seen.set(key, recent);
      return false;
    }
    recent.push(now);
    this.seen.set(key, recent);
    if (this.seen.size > 10_000) this.seen.clear();
    return true;
  }
}

type Session = SMTPServerSession & { invoicebox?: InboundRecipient[] };

/**
 * The address people mail or forward invoices to. It accepts mail only for a person's current
 * `invoices+<token>@<domain>` address and refuses every other recipient (unknown tokens with 550 5.1.1, other domains
 * with 550 5.7.1: never an open relay). It takes no authentication, so nobody can use it to send anywhere. Each
 * accepted mail gets SPF/DKIM/DMARC results (mailauth) as an Authentication-Results header and goes to the same mail
 * import as an uploaded .eml, so the §5 rules judge it like any other mail.
 */
export function createInboundSmtpServer(options: InboundSmtpOptions): SMTPServer {
  const rate = new PerMinute(options.messagesPerMinute);
  const resolver = options.resolver ?? systemResolver;
  const serverOptions: SMTPServerOptions = {
    name: options.domain,
    banner: 'Invoicebox: invoices only',
    size: options.maxBytes,
    authOptional: true,
    disabledCommands: options.tls ? ['AUTH'] : ['AUTH', 'STARTTLS'],
    ...(options.tls ? { key: options.tls.key, cert: options.tls.cert } : {}),
    maxClients: 100,
    socketTimeout: 60_000,
    closeTimeout: 5_000,
    logger: false,
    onMailFrom(_address, session, callback) {
      if (!rate.take(session.remoteAddress)) {
        callback(reply(421, 'Too many messages from your address, try again later'));
        return;
      }
      callback();
    },
    onRcptTo(address, session: Session, callback) {
      options.addresses.resolve(address.address).then(
        (found) => {
          if (found === 'relay') callback(reply(550, '5.7.1 Relaying denied: this server accepts invoices only'));
          else if (found === 'unknown') callback(reply(550, '5.1.1 No such recipient here'));
          else {
            session.invoicebox = [...(session.invoicebox ?? []), found];
            callback();
          }
        },
        (error: unknown) => {
          options.log('warn', 'inbound recipient lookup failed', { err: error });
          callback(reply(451, '4.3.0 Temporary failure, try again later'));
        },
      );
    },
    onData(stream, session: Session, callback) {
      const chunks: Buffer[] = [];
      stream.on('data', (chunk: Buffer) => {
        // Past the limit nothing more is kept; smtp-server still reads to the end and flags it.
        if (!stream.sizeExceeded) chunks.push(chunk);
      });
      stream.on('error', (error) => callback(error));
      stream.on('end', () => {
        if (stream.sizeExceeded) {
          callback(reply(552, `5.3.4 Message too big: at most ${Math.round(options.maxBytes / 1048576)} MB`));
          return;
        }
        accept(Buffer.concat(chunks), session).then(
          (count) => callback(null, `Accepted for ${count} recipient${count === 1 ? '' : 's'}`),
          (error: unknown) => {
            options.log('warn', 'inbound mail could not be stored', { err: error });
            callback(reply(451, '4.3.0 Could not store the message, try again later'));
          },
        );
      });
    },
  };

  async function accept(message: Buffer, session: Session): Promise<number> {
    const mailFrom = session.envelope.mailFrom;
    const result = await authenticate(message, {
      ip: session.remoteAddress,
      helo: session.hostNameAppearsAs,
      sender: mailFrom ? mailFrom.address : '',
      mta: options.domain,
      resolver,
      disableArc: true,
      disableBimi: true,
    }).catch((error: unknown) => {
      // A failed check is recorded as such, never a reason to lose the mail.
      options.log('warn', 'inbound mail authentication failed to run', { err: error });
      return { headers: `Authentication-Results: ${options.domain}; none (checks could not run)\r\n` };
    });
    const raw = Buffer.concat([Buffer.from(result.headers, 'utf8'), message]);
    // One delivery per person even when a mail names several of their addresses (or the same one twice).
    const people = new Map((session.invoicebox ?? []).map((r) => [r.ownerId, r]));
    for (const recipient of people.values()) {
      await options.deliver({ ownerId: recipient.ownerId, address: recipient.address, raw });
    }
    options.log('info', 'inbound mail accepted', {
      recipients: people.size,
      bytes: raw.length,
      spf: 'spf' in result && result.spf ? result.spf.status?.result : undefined,
      dmarc: 'dmarc' in result && result.dmarc ? result.dmarc.status?.result : undefined,
    });
    return people.size;
  }

  return new SMTPServer(serverOptions);
}
