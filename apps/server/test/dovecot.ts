import { type ChildProcess, spawn } from 'node:child_process';
import fs from 'node:fs/promises';
import net from 'node:net';
import os from 'node:os';
import path from 'node:path';
import { freePort, isOpen } from './ports';

/**
 * A real Dovecot IMAP (+ LMTP) server for one test file, in its own temp dir and ports (see shared/RECIPES.md §1).
 * Users are `name:password` pairs; mail is stored as Maildir. `stop()` and `start()` again keep the mail, so tests
 * can take the server away mid-sync.
 */
export interface TestDovecot {
  host: string;
  imapPort: number;
  lmtpPort: number;
  /** Delivers messages over LMTP on one connection (the server's own delivery path). */
  deliver(user: string, messages: Buffer[]): Promise<void>;
  /**
   * Writes messages straight into the user's Maildir `cur/`, as Dovecot's own delivery would, for seeding large
   * mailboxes fast; Dovecot indexes them on the next SELECT. Only while no session has the mailbox open.
   */
  writeMaildir(user: string, messages: Buffer[]): Promise<void>;
  start(): Promise<void>;
  stop(): Promise<void>;
  dispose(): Promise<void>;
}

export async function startDovecot(users: Record<string, string>): Promise<TestDovecot> {
  const dir = await fs.mkdtemp(path.join(os.tmpdir(), 'invoicebox-dovecot-'));
  await fs.chmod(dir, 0o755);
  const isRoot = process.getuid?.() === 0;
  const [imapPort, lmtpPort] = [await freePort(), await freePort()];
  for (const sub of ['run', 'state', 'mail']) await fs.mkdir(path.join(dir, sub), { recursive: true });
  if (isRoot) await fs.chown(path.join(dir, 'mail'), 65534, 65534);
  const uid = isRoot ? 65534 : process.getuid!();
  const gid = isRoot ? 65534 : process.getgid!();
  await fs.writeFile(
    path.join(dir, 'passwd'),
    Object.entries(users)
      .map(([name, password]) => `${name}:{PLAIN}${password}::::::`)
      .join('\n'),
  );
  const internalUser = isRoot ? 'dovecot' : os.userInfo().username;
  const loginUser = isRoot ? 'dovenull' : os.userInfo().username;
  const conf = `instance_name = invoicebox-test-${process.pid}-${imapPort}
base_dir = ${dir}/run
state_dir = ${dir}/state
log_path = ${dir}/dovecot.log
protocols = imap lmtp
listen = 127.0.0.1
ssl = no
disable_plaintext_auth = no
auth_mechanisms = plain login
auth_username_format = %Ln
default_internal_user = ${internalUser}
default_internal_group = ${isRoot ? 'dovecot' : os.userInfo().username}
default_login_user = ${loginUser}
first_valid_uid = 0
mail_location = maildir:${dir}/mail/%n/Maildir
postmaster_address = postmaster@localhost
passdb {
  driver = passwd-file
  args = scheme=PLAIN ${dir}/passwd
}
userdb {
  driver = static
  args = uid=${uid} gid=${gid} home=${dir}/mail/%n
}
service anvil {
  chroot =
}
service imap-login {
  chroot =
  inet_listener imap {
    port = ${imapPort}
  }
  inet_listener imaps {
    port = 0
  }
}
service lmtp {
  inet_listener lmtp {
    port = ${lmtpPort}
  }
}
`;
  const confPath = path.join(dir, 'dovecot.conf');
  await fs.writeFile(confPath, conf);
  let child: ChildProcess | undefined;

  async function start() {
    // Its own process group, so that stop() also ends the per-connection imap processes.
    child = spawn('/usr/sbin/dovecot', ['-F', '-c', confPath], { stdio: 'ignore', detached: true });
    const deadline = Date.now() + 10_000;
    while (!(await isOpen(imapPort)) || !(await isOpen(lmtpPort))) {
      if (Date.now() > deadline || child.exitCode !== null) {
        const log = await fs.readFile(path.join(dir, 'dovecot.log'), 'utf8').catch(() => '');
        throw new Error(`dovecot did not start: ${log.slice(-2000)}`);
      }
      await new Promise((r) => setTimeout(r, 20));
    }
  }

  async function stop() {
    const running = child;
    child = undefined;
    if (!running || running.exitCode !== null) return;
    await new Promise((resolve) => {
      running.once('exit', resolve);
      running.kill('SIGTERM');
    });
    try {
      process.kill(-running.pid!, 'SIGKILL'); // the connections' imap processes: the server is gone for everyone
    } catch {
      // already gone
    }
    while (await isOpen(imapPort)) await new Promise((r) => setTimeout(r, 20));
  }

  async function writeMaildir(user: string, messages: Buffer[]) {
    const maildir = path.join(dir, 'mail', user, 'Maildir');
    for (const sub of ['cur', 'new', 'tmp']) await fs.mkdir(path.join(maildir, sub), { recursive: true });
    const stamp = Math.floor(Date.now() / 1000);
    // Unique names (time.Mseq.host), written in order: Dovecot gives UIDs in the order its readdir finds them.
    const write = async (i: number) => {
      const name = `${stamp}.M${i}P${process.pid}.seed,S=${messages[i]!.length}:2,`;
      const file = path.join(maildir, 'cur', name);
      await fs.writeFile(file, messages[i]!);
      if (isRoot) await fs.chown(file, uid, gid);
    };
    for (let i = 0; i < messages.length; i += 64) {
      await Promise.all(messages.slice(i, i + 64).map((_, j) => write(i + j)));
    }
    if (isRoot) {
      for (const d of [
        path.join(dir, 'mail', user),
        maildir,
        ...['cur', 'new', 'tmp'].map((s) => path.join(maildir, s)),
      ]) {
        await fs.chown(d, uid, gid);
      }
    }
  }

  await start();
  return {
    host: '127.0.0.1',
    imapPort,
    lmtpPort,
    deliver: (user, messages) => deliverLmtp(lmtpPort, user, messages),
    writeMaildir,
    start,
    stop,
    async dispose() {
      await stop();
      await fs.rm(dir, { recursive: true, force: true });
    },
  };
}

/** A minimal LMTP client: LHLO once, then per message MAIL, RCPT, DATA and the dot-stuffed body in CRLF. */
async function deliverLmtp(port: number, user: string, messages: Buffer[]): Promise<void> {
  const socket = net.connect(port, '127.0.0.1');
  socket.setNoDelay(true);
  let buffer = '';
  const waiting: Array<(line: string) => void> = [];
  const lines: string[] = [];
  socket.on('data', (chunk: Buffer) => {
    buffer += chunk.toString('latin1');
    let at = buffer.indexOf('\r\n');
    while (at !== -1) {
      const line = buffer.slice(0, at);
      buffer = buffer.slice(at + 2);
      // Multi-line replies ("250-…") end with "250 …": only the last line completes a reply.
      if (!/^\d{3}-/.test(line)) {
        const next = waiting.shift();
        if (next) next(line);
        else lines.push(line);
      }
      at = buffer.indexOf('\r\n');
    }
  });
  const failed = new Promise<never>((_, reject) => socket.once('error', reject));
  const reply = () =>
    Promise.race([
      failed,
      new Promise<string>((resolve) => {
        const ready = lines.shift();
        if (ready !== undefined) resolve(ready);
        else waiting.push(resolve);
      }),
    ]);
  const expect = async (code: string, what: string) => {
    const line = await reply();
    if (!line.startsWith(code)) throw new Error(`LMTP ${what}: ${line}`);
  };
  try {
    await new Promise<void>((resolve, reject) => socket.once('connect', resolve).once('error', reject));
    await expect('220', 'greeting');
    socket.write('LHLO localhost\r\n');
    await expect('250', 'LHLO');
    for (const message of messages) {
      // MAIL, RCPT and DATA go in one write; the body waits for DATA's 354 (RFC 2920).
      socket.write(`MAIL FROM:<seed@localhost>\r\nRCPT TO:<${user}@localhost>\r\nDATA\r\n`);
      await expect('250', 'MAIL');
      await expect('250', 'RCPT');
      await expect('354', 'DATA');
      const body = message.toString('latin1').replace(/\r?\n/g, '\r\n').replace(/^\./gm, '..');
      socket.write(`${body}${body.endsWith('\r\n') ? '' : '\r\n'}.\r\n`, 'latin1');
      await expect('250', 'delivery');
    }
    socket.write('QUIT\r\n');
  } finally {
    socket.end();
  }
}
