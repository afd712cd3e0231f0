import http from 'node:http';
import type { AddressInfo } from 'node:net';

/**
 * A local server speaking the Gmail REST wire format (v1) for the parts the adapters use: users.getProfile,
 * messages.list (pageToken/maxResults honoured; of `q` only `rfc822msgid:<id>` is understood, other queries list
 * everything), messages.get (format=raw), messages.send (a JSON body with `raw`, base64url; the message is filed with
 * the SENT label and listed like any other), history.list (messageAdded; 404 for a startHistoryId older than it
 * keeps). Errors as Google sends them: `{ error: { code, message, status,
 * errors: [{ reason }] } }`. `failNext(status, reason)` makes the next API calls fail.
 */
export interface FakeGmail {
  rootUrl: string;
  /** Adds a message; returns its id. */
  add(raw: Buffer): string;
  /** Forgets history before the current point (history.list from older ids answers 404). */
  expireHistory(): void;
  failNext(count: number, status: number, reason: string): void;
  /** Valid bearer tokens; others get 401. */
  tokens: Set<string>;
  /** Messages received through messages.send, in order. */
  sent: Buffer[];
  requests: string[];
  close(): Promise<void>;
}

export async function startFakeGmail(): Promise<FakeGmail> {
  const messages: Array<{ id: string; raw: Buffer; historyId: number }> = [];
  let historyId = 1000;
  let oldestHistory = 1000;
  const failures: Array<{ status: number; reason: string }> = [];
  const tokens = new Set<string>(['valid-token']);
  const requests: string[] = [];
  const sent: Buffer[] = [];
  const add = (raw: Buffer) => {
    historyId += 1;
    const id = `m${historyId.toString(16)}`;
    messages.push({ id, raw, historyId });
    return id;
  };
  const messageIdOf = (raw: Buffer) => {
    const head = raw
      .toString('latin1')
      .split(/\r?\n\r?\n/, 1)[0]!
      .replace(/\r?\n[ \t]+/g, ' ');
    return /^message-id:\s*<?([^>\s]+)>?/im.exec(head)?.[1];
  };

  const send = (res: http.ServerResponse, status: number, body: unknown) => {
    res.writeHead(status, { 'content-type': 'application/json' });
    res.end(JSON.stringify(body));
  };
  const error = (res: http.ServerResponse, code: number, message: string, reason: string) =>
    send(res, code, { error: { code, message, status: reason.toUpperCase(), errors: [{ reason, message }] } });

  const server = http.createServer((req, res) => {
    const url = new URL(req.url!, 'http://x');
    requests.push(`${req.method} ${url.pathname}`);
    const token = (req.headers.authorization ?? '').replace(/^Bearer /, '');
    if (!tokens.has(token)) return error(res, 401, 'Invalid Credentials', 'authError');
    const failure = failures.shift();
    if (failure) return error(res, failure.status, 'Failing on purpose', failure.reason);
    const base = '/gmail/v1/users/me';
    if (url.pathname === `${base}/profile`) {
      return send(res, 200, {
        emailAddress: 'me@gmail.test',
        historyId: String(historyId),
        messagesTotal: messages.length,
      });
    }
    if (url.pathname === `${base}/messages/send` && req.method === 'POST') {
      const chunks: Buffer[] = [];
      req.on('data', (c: Buffer) => chunks.push(c));
      req.on('end', () => {
        const body = JSON.parse(Buffer.concat(chunks).toString('utf8') || '{}') as { raw?: string };
        if (!body.raw) return error(res, 400, "'raw' RFC822 payload message string is required", 'invalidArgument');
        const raw = Buffer.from(body.raw, 'base64url');
        sent.push(raw);
        const id = add(raw);
        send(res, 200, { id, threadId: id, labelIds: ['SENT'] });
      });
      return;
    }
    if (url.pathname === `${base}/messages`) {
      const max = Number(url.searchParams.get('maxResults') ?? 100);
      const start = Number(url.searchParams.get('pageToken') ?? 0);
      const byId = /(?:^|\s)rfc822msgid:<?([^>\s]+)>?/.exec(url.searchParams.get('q') ?? '')?.[1];
      // Gmail lists newest first.
      const ordered = [...messages].reverse().filter((m) => byId === undefined || messageIdOf(m.raw) === byId);
      const page = ordered.slice(start, start + max);
      return send(res, 200, {
        messages: page.map((m) => ({ id: m.id, threadId: m.id })),
        ...(start + max < ordered.length ? { nextPageToken: String(start + max) } : {}),
        resultSizeEstimate: ordered.length,
      });
    }
    const one = url.pathname.match(/^\/gmail\/v1\/users\/me\/messages\/([^/]+)$/);
    if (one) {
      const m = messages.find((x) => x.id === one[1]);
      if (!m) return error(res, 404, 'Requested entity was not found.', 'notFound');
      return send(res, 200, {
        id: m.id,
        threadId: m.id,
        historyId: String(m.historyId),
        sizeEstimate: m.raw.length,
        raw: m.raw.toString('base64url'),
      });
    }
    if (url.pathname === `${base}/history`) {
      const since = Number(url.searchParams.get('startHistoryId'));
      if (!(since >= oldestHistory)) return error(res, 404, 'Requested entity was not found.', 'notFound');
      const added = messages.filter((m) => m.historyId > since);
      return send(res, 200, {
        history: added.map((m) => ({
          id: String(m.historyId),
          messagesAdded: [{ message: { id: m.id, threadId: m.id } }],
        })),
        historyId: String(historyId),
      });
    }
    return error(res, 404, 'Not found', 'notFound');
  });
  await new Promise<void>((r) => server.listen(0, '127.0.0.1', r));
  const { port } = server.address() as AddressInfo;
  return {
    rootUrl: `http://127.0.0.1:${port}/`,
    add,
    expireHistory() {
      oldestHistory = historyId;
    },
    failNext(count, status, reason) {
      for (let i = 0; i < count; i++) failures.push({ status, reason });
    },
    tokens,
    sent,
    requests,
    close: () => new Promise((r) => server.close(() => r())),
  };
}
