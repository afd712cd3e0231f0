import { createCipheriv, createDecipheriv, hkdfSync, randomBytes } from 'node:crypto';
import fs from 'node:fs/promises';
import path from 'node:path';
import { AppError } from '../errors';

/**
 * Encryption of data at rest (provider tokens, TOTP secrets, private signing keys): AES-256-GCM with a random
 * 96-bit nonce per message. The ciphertext is text: `v1.<base64url(nonce ‖ tag ‖ ciphertext)>`. The version prefix
 * lets a later format (or key) sit beside this one; the purpose (`context`) is bound as associated data, so a
 * ciphertext copied into another column does not decrypt.
 */
export interface SecretBox {
  encrypt(plaintext: string, context: string): string;
  /** Throws SecretBoxError when the ciphertext was altered, was made with another key or for another context. */
  decrypt(ciphertext: string, context: string): string;
}

export class SecretBoxError extends AppError {
  constructor(message: string) {
    super(message, { code: 'secret_undecryptable', status: 500 });
  }
}

const VERSION = 'v1';
const NONCE_BYTES = 12;
const TAG_BYTES = 16;

export function createSecretBox(keyMaterial: Buffer | string): SecretBox {
  // HKDF turns any key material (a passphrase-like INVOICEBOX_SECRET or 32 random bytes) into one uniform key.
  const key = Buffer.from(
    hkdfSync('sha256', keyMaterial, 'invoicebox secret box', `invoicebox ${VERSION} aes-256-gcm`, 32),
  );
  const aad = (context: string) => Buffer.from(`${VERSION}|${context}`, 'utf8');
  return {
    encrypt(plaintext, context) {
      const nonce = randomBytes(NONCE_BYTES);
      const cipher = createCipheriv('aes-256-gcm', key, nonce);
      cipher.setAAD(aad(context));
      const body = Buffer.concat([cipher.update(plaintext, 'utf8'), cipher.final()]);
      return `${VERSION}.${Buffer.concat([nonce, cipher.getAuthTag(), body]).toString('base64url')}`;
    },
    decrypt(ciphertext, context) {
      const [version, payload, ...rest] = ciphertext.split('.');
      if (version !== VERSION || !payload || rest.length > 0) {
        throw new SecretBoxError('encrypted value has an unknown format');
      }
      const raw = Buffer.from(payload, 'base64url');
      if (raw.length < NONCE_BYTES + TAG_BYTES) throw new SecretBoxError('encrypted value is truncated');
      try {
        const decipher = createDecipheriv('aes-256-gcm', key, raw.subarray(0, NONCE_BYTES));
        decipher.setAAD(aad(context));
        decipher.setAuthTag(raw.subarray(NONCE_BYTES, NONCE_BYTES + TAG_BYTES));
        return Buffer.concat([decipher.update(raw.subarray(NONCE_BYTES + TAG_BYTES)), decipher.final()]).toString(
          'utf8',
        );
      } catch {
        throw new SecretBoxError(
          'encrypted value cannot be decrypted: it was altered, or INVOICEBOX_SECRET (or secrets/master.key) changed',
        );
      }
    },
  };
}

/**
 * The secret box of this installation: keyed by INVOICEBOX_SECRET when set, otherwise by `<dataDir>/secrets/master.key`,
 * made once with 32 random bytes (file 0600, folder 0700). The data dir itself is left as it is: the embedded
 * PostgreSQL's OS user must be able to enter it.
 */
export async function loadSecretBox(options: { secret: string | undefined; dataDir: string }): Promise<SecretBox> {
  if (options.secret) return createSecretBox(options.secret);
  return createSecretBox(await loadOrCreateMasterKey(options.dataDir));
}

export function masterKeyPath(dataDir: string): string {
  return path.join(dataDir, 'secrets', 'master.key');
}

export async function loadOrCreateMasterKey(dataDir: string): Promise<Buffer> {
  const dir = path.dirname(masterKeyPath(dataDir));
  const file = masterKeyPath(dataDir);
  await fs.mkdir(dir, { recursive: true, mode: 0o700 });
  await fs.chmod(dir, 0o700);
  // Written beside, then hard-linked into place: when two processes start at once, exactly one key wins and nobody
  // ever reads a half-written file.
  const temporary = `${file}.${process.pid}.${randomBytes(4).toString('hex')}`;
  await fs.writeFile(temporary, `${randomBytes(32).toString('base64')}\n`, { flag: 'wx', mode: 0o600 });
  try {
    await fs.link(temporary, file);
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code !== 'EEXIST') throw error;
  } finally {
    await fs.rm(temporary, { force: true });
  }
  const stat = await fs.stat(file);
  if ((stat.mode & 0o077) !== 0) await fs.chmod(file, 0o600);
  const key = Buffer.from((await fs.readFile(file, 'utf8')).trim(), 'base64');
  if (key.length < 32) {
    throw new SecretBoxError(`${file} does not hold a 32-byte base64 key; restore it from a backup`);
  }
  return key;
}
