import { hkdfSync } from 'node:crypto';
import fs from 'node:fs/promises';
import { eq } from 'drizzle-orm';
import type { Db } from '../db/client';
import { ConfigError } from '../errors';
import { secretKeyCheck } from './auth.tables';
import { createSecretBox, loadOrCreateMasterKey, masterKeyPath, type SecretBox } from './secret-box';

/** A value that tells keys apart without revealing them (HKDF with its own purpose; the box's key is another). */
export function keyFingerprint(keyMaterial: Buffer | string): string {
  return Buffer.from(
    hkdfSync('sha256', keyMaterial, 'invoicebox key check', 'invoicebox key fingerprint', 16),
  ).toString('hex');
}

const SET_THE_SECRET =
  'set INVOICEBOX_SECRET to one value, the same on every API and worker process of this database (the value the ' +
  'first process used, when it was set)';

/**
 * The secret box of an installation whose processes share one database. INVOICEBOX_SECRET, or else the data dir's
 * `secrets/master.key`; on an external database a process without either stops instead of making a key of its own
 * when other processes already encrypt with theirs, and any process whose key is not the recorded one stops too.
 * `record()` stores the fingerprint once the key is proven (it decrypted the signing keys): a wrong first key after
 * an upgrade is never recorded as the right one.
 */
export async function loadCheckedSecretBox(
  config: { secret: string | undefined; dataDir: string; databaseUrl?: string | undefined },
  db: Db,
): Promise<{ box: SecretBox; record(): Promise<void> }> {
  const recorded = async () => (await db.select().from(secretKeyCheck).where(eq(secretKeyCheck.id, 1)))[0]?.fingerprint;
  let material: Buffer | string;
  if (config.secret) {
    material = config.secret;
  } else {
    const keyFile = masterKeyPath(config.dataDir);
    const hasOwnKey = await fs.access(keyFile).then(
      () => true,
      () => false,
    );
    if (config.databaseUrl && !hasOwnKey && (await recorded())) {
      throw new ConfigError(
        `INVOICEBOX_SECRET is not set, and other Invoicebox processes already use this database with their key: ${SET_THE_SECRET}. Without it this process would make a key of its own in ${keyFile}, and neither side could read what the other encrypts`,
      );
    }
    material = await loadOrCreateMasterKey(config.dataDir);
  }
  const fingerprint = keyFingerprint(material);
  const mismatch = () =>
    new ConfigError(
      `${config.secret ? 'INVOICEBOX_SECRET is not' : `INVOICEBOX_SECRET is not set, and ${masterKeyPath(config.dataDir)} is not`} the key the other Invoicebox processes of this database encrypt with: ${SET_THE_SECRET}`,
    );
  const before = await recorded();
  if (before !== undefined && before !== fingerprint) throw mismatch();
  return {
    box: createSecretBox(material),
    async record() {
      if (before !== undefined) return;
      await db.insert(secretKeyCheck).values({ id: 1, fingerprint }).onConflictDoNothing();
      // Two first processes at once: the one whose row is there wins; the other stops.
      if ((await recorded()) !== fingerprint) throw mismatch();
    },
  };
}
