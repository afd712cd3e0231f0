import fs from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createSecretBox, loadSecretBox, masterKeyPath, SecretBoxError } from './secret-box';

describe('the secret box', () => {
  const box = createSecretBox('a-secret-of-at-least-thirty-two-characters');

  it('round-trips text, with a fresh nonce every time', () => {
    const a = box.encrypt('ya29.some-access-token ✓', 'provider_tokens.access_token');
    const b = box.encrypt('ya29.some-access-token ✓', 'provider_tokens.access_token');
    expect(a).toMatch(/^v1\.[A-Za-z0-9_-]+$/);
    expect(a).not.toBe(b);
    expect(a).not.toContain('ya29');
    expect(box.decrypt(a, 'provider_tokens.access_token')).toBe('ya29.some-access-token ✓');
    expect(box.decrypt(box.encrypt('', 'x'), 'x')).toBe('');
  });

  it('detects tampering, another key, another purpose and unknown formats', () => {
    const sealed = box.encrypt('secret', 'ctx');
    const raw = Buffer.from(sealed.slice(3), 'base64url');
    for (const index of [0, 13, raw.length - 1]) {
      const altered = Buffer.from(raw);
      altered[index] = altered[index]! ^ 0x01;
      expect(() => box.decrypt(`v1.${altered.toString('base64url')}`, 'ctx')).toThrow(SecretBoxError);
    }
    expect(() => box.decrypt(sealed, 'other-ctx')).toThrow(SecretBoxError);
    expect(() => createSecretBox('another-secret-of-at-least-32-characters').decrypt(sealed, 'ctx')).toThrow(
      /cannot be decrypted/,
    );
    expect(() => box.decrypt(sealed.replace(/^v1/, 'v9'), 'ctx')).toThrow(/unknown format/);
    expect(() => box.decrypt('v1.AAAA', 'ctx')).toThrow(/truncated/);
    expect(() => box.decrypt('plain text', 'ctx')).toThrow(SecretBoxError);
  });
});

describe('the master key file', () => {
  let dataDir: string;
  beforeAll(async () => {
    dataDir = await fs.mkdtemp(path.join(os.tmpdir(), 'invoicebox-secrets-'));
    await fs.chmod(dataDir, 0o755);
  });
  afterAll(async () => {
    await fs.rm(dataDir, { recursive: true, force: true });
  });

  it('is made once, readable by its owner only, and keeps the data dir enterable', async () => {
    const first = await loadSecretBox({ secret: undefined, dataDir });
    const file = masterKeyPath(dataDir);
    expect((await fs.stat(file)).mode & 0o777).toBe(0o600);
    expect((await fs.stat(path.dirname(file))).mode & 0o777).toBe(0o700);
    expect((await fs.stat(dataDir)).mode & 0o777).toBe(0o755);
    expect(Buffer.from((await fs.readFile(file, 'utf8')).trim(), 'base64')).toHaveLength(32);
    expect(await fs.readdir(path.dirname(file))).toEqual(['master.key']);

    // Every later start (several at once, too) uses the same key.
    const sealed = first.encrypt('signing key', 'ctx');
    const again = await Promise.all([1, 2, 3].map(() => loadSecretBox({ secret: undefined, dataDir })));
    for (const box of again) expect(box.decrypt(sealed, 'ctx')).toBe('signing key');
  });

  it('tightens a key file that others can read', async () => {
    await fs.chmod(masterKeyPath(dataDir), 0o644);
    await loadSecretBox({ secret: undefined, dataDir });
    expect((await fs.stat(masterKeyPath(dataDir))).mode & 0o777).toBe(0o600);
  });

  it('uses INVOICEBOX_SECRET instead of a file when it is set', async () => {
    const other = await fs.mkdtemp(path.join(os.tmpdir(), 'invoicebox-secrets-'));
    try {
      const box = await loadSecretBox({ secret: 'a-secret-of-at-least-thirty-two-characters', dataDir: other });
      expect(await fs.readdir(other)).toEqual([]);
      const sealed = box.encrypt('x', 'ctx');
      expect(createSecretBox('a-secret-of-at-least-thirty-two-characters').decrypt(sealed, 'ctx')).toBe('x');
    } finally {
      await fs.rm(other, { recursive: true, force: true });
    }
  });
});
