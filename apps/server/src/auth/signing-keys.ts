import { and, desc, gt, isNull, lt, or, sql } from 'drizzle-orm';
import { calculateJwkThumbprint, exportJWK, generateKeyPair, importJWK, type JWK } from 'jose';
import type { Db } from '../db/client';
import { type SigningKeyRow, signingKeys } from './auth.tables';
import { type SecretBox, SecretBoxError } from './secret-box';

export const SIGNING_ALGORITHM = 'EdDSA';
const PRIVATE_KEY_CONTEXT = 'signing_keys.private_jwk';
/** How long a process trusts its copy of the key list before it reads the table again. */
const CACHE_MS = 60_000;
/**
 * A successor key is published this long before it signs: longer than the JWKS max-age (5 minutes) plus our own
 * cache, so that whoever caches our JWKS, and every API process, knows the key before the first token it signs.
 */
export const PREPUBLISH_SECONDS = 10 * 60;

type CryptoKeyLike = Awaited<ReturnType<typeof importJWK>>;

interface LoadedKey {
  kid: string;
  publicJwk: JWK;
  createdAt: Date;
  activatesAt: Date;
  supersededAt: Date | null;
  retiresAt: Date | null;
  privateJwkEncrypted: string;
  publicKey?: CryptoKeyLike;
  privateKey?: CryptoKeyLike;
}

/** SQL on the signing_keys table and nothing else. */
export class SigningKeysRepository {
  constructor(private readonly db: Db) {}

  /** Keys that may still verify a token at `now`, newest first. */
  async listPublished(now: Date): Promise<SigningKeyRow[]> {
    return this.db
      .select()
      .from(signingKeys)
      .where(or(isNull(signingKeys.retiresAt), gt(signingKeys.retiresAt, now)))
      .orderBy(desc(signingKeys.activatesAt), desc(signingKeys.kid));
  }

  /**
   * Runs `fn` while holding the installation-wide rotation lock, so that several processes rotating at the same
   * moment make one new key, not several.
   */
  async withRotationLock<T>(fn: (repo: SigningKeysRepository) => Promise<T>): Promise<T> {
    return this.db.transaction(async (tx) => {
      await tx.execute(sql`select pg_advisory_xact_lock(hashtext('invoicebox:signing-keys'))`);
      return fn(new SigningKeysRepository(tx as unknown as Db));
    });
  }

  async insert(row: typeof signingKeys.$inferInsert): Promise<void> {
    await this.db.insert(signingKeys).values(row);
  }

  /** Marks every key but `successorKid` as superseded at `at` (once), to retire at `retiresAt`. */
  async supersedeAllBut(successorKid: string, at: Date, retiresAt: Date): Promise<void> {
    await this.db
      .update(signingKeys)
      .set({ supersededAt: at, retiresAt })
      .where(and(isNull(signingKeys.supersededAt), sql`${signingKeys.kid} <> ${successorKid}`));
  }

  async deleteRetiredBefore(at: Date): Promise<void> {
    await this.db.delete(signingKeys).where(lt(signingKeys.retiresAt, at));
  }
}

export interface SigningKeysOptions {
  /** A current key that has signed this long gets a successor. */
  rotationSeconds: number;
  /** The longest lifetime of any token we sign: a replaced key stays published this long (plus the cache time). */
  maxTokenSeconds: number;
  now?: () => Date;
}

/**
 * The Ed25519 keys of the installation, kept in the database with the private half in the secret box, so every API
 * process signs and verifies with the same keys. The newest active key signs; every key that is not yet retired
 * verifies and is published at /.well-known/jwks.json. Rotation happens lazily: the first signature after the
 * current key has signed for `rotationSeconds` makes a successor, published at once and signing PREPUBLISH_SECONDS
 * later; the old key retires once every token it can have signed has expired.
 */
export class SigningKeys {
  private cache: { loadedAt: number; keys: LoadedKey[] } | undefined;
  private loading: Promise<LoadedKey[]> | undefined;
  private readonly now: () => Date;

  constructor(
    private readonly repository: SigningKeysRepository,
    private readonly box: SecretBox,
    private readonly options: SigningKeysOptions,
  ) {
    this.now = options.now ?? (() => new Date());
  }

  /** The key that signs now, with its private half; makes its successor first when it is due. */
  async current(): Promise<{ kid: string; privateKey: CryptoKeyLike }> {
    let { active, pending } = this.split(await this.keys());
    if (!active || (this.isDue(active) && !pending)) {
      await this.rotate({ onlyIfDue: true });
      ({ active } = this.split(await this.keys()));
    }
    if (!active) throw new Error('no signing key after rotation');
    active.privateKey ??= await importJWK(JSON.parse(this.decryptPrivate(active)) as JWK, SIGNING_ALGORITHM);
    return { kid: active.kid, privateKey: active.privateKey };
  }

  /** The public key for a token's `kid`, or undefined when no unretired key has it. */
  async verificationKey(kid: string): Promise<CryptoKeyLike | undefined> {
    let key = (await this.keys()).find((k) => k.kid === kid);
    // A key made by another process since our last read: read once more before refusing.
    if (!key && this.cache && Date.now() - this.cache.loadedAt > 1_000) {
      key = (await this.keys(true)).find((k) => k.kid === kid);
    }
    if (!key || (key.retiresAt && key.retiresAt <= this.now())) return undefined;
    key.publicKey ??= await importJWK(key.publicJwk, SIGNING_ALGORITHM);
    return key.publicKey;
  }

  /** The JSON Web Key Set of every unretired key. */
  async jwks(): Promise<{ keys: JWK[] }> {
    const now = this.now();
    return {
      keys: (await this.keys())
        .filter((k) => !k.retiresAt || k.retiresAt > now)
        .map((k) => ({ ...k.publicJwk, kid: k.kid, alg: SIGNING_ALGORITHM, use: 'sig' })),
    };
  }

  /**
   * Makes a successor key (with `onlyIfDue`: only when there is no key at all, or the active one is due and has no
   * successor yet). The very first key signs at once; a successor after PREPUBLISH_SECONDS.
   */
  async rotate(options: { onlyIfDue?: boolean } = {}): Promise<void> {
    await this.repository.withRotationLock(async (repo) => {
      const now = this.now();
      const { active, pending } = this.split(await repo.listPublished(now));
      if (options.onlyIfDue && active && (pending || !this.isDue(active))) return;
      const { publicKey, privateKey } = await generateKeyPair(SIGNING_ALGORITHM, {
        crv: 'Ed25519',
        extractable: true,
      });
      const publicJwk = await exportJWK(publicKey);
      const kid = await calculateJwkThumbprint(publicJwk);
      const activatesAt = active ? new Date(now.getTime() + PREPUBLISH_SECONDS * 1000) : now;
      await repo.insert({
        kid,
        algorithm: SIGNING_ALGORITHM,
        publicJwk,
        privateJwkEncrypted: this.box.encrypt(JSON.stringify(await exportJWK(privateKey)), PRIVATE_KEY_CONTEXT),
        createdAt: now,
        activatesAt,
      });
      // The old key signs until `activatesAt`; its last tokens expire at most maxTokenSeconds later. The extra
      // minutes cover a process whose cached key list is a little behind.
      const retiresAt = new Date(activatesAt.getTime() + this.options.maxTokenSeconds * 1000 + 2 * CACHE_MS);
      await repo.supersedeAllBut(kid, activatesAt, retiresAt);
      await repo.deleteRetiredBefore(new Date(now.getTime() - 86_400_000));
    });
    this.cache = undefined;
  }

  private decryptPrivate(key: LoadedKey): string {
    try {
      return this.box.decrypt(key.privateJwkEncrypted, PRIVATE_KEY_CONTEXT);
    } catch (error) {
      if (!(error instanceof SecretBoxError)) throw error;
      throw new SecretBoxError(
        'cannot decrypt the token-signing key: INVOICEBOX_SECRET (or secrets/master.key in the data dir) is not the ' +
          'one it was encrypted with; restore it',
      );
    }
  }

  private isDue(key: { activatesAt: Date }): boolean {
    return this.now().getTime() - key.activatesAt.getTime() >= this.options.rotationSeconds * 1000;
  }

  /** The signing key of now (newest active) and a published successor that does not sign yet. */
  private split<K extends { activatesAt: Date; createdAt: Date }>(keys: K[]): { active?: K; pending?: K } {
    const now = this.now().getTime();
    return {
      active: keys.find((k) => k.activatesAt.getTime() <= now),
      pending: keys.find((k) => k.activatesAt.getTime() > now),
    };
  }

  private async keys(fresh = false): Promise<LoadedKey[]> {
    if (!fresh && this.cache && Date.now() - this.cache.loadedAt < CACHE_MS) return this.cache.keys;
    this.loading ??= this.repository
      .listPublished(this.now())
      .then((rows) => {
        const previous = new Map(this.cache?.keys.map((k) => [k.kid, k]));
        const keys = rows.map((r): LoadedKey => {
          const known = previous.get(r.kid);
          return {
            kid: r.kid,
            publicJwk: r.publicJwk as JWK,
            createdAt: r.createdAt,
            activatesAt: r.activatesAt,
            supersededAt: r.supersededAt,
            retiresAt: r.retiresAt,
            privateJwkEncrypted: r.privateJwkEncrypted,
            publicKey: known?.publicKey,
            privateKey: known?.privateKey,
          };
        });
        this.cache = { loadedAt: Date.now(), keys };
        return keys;
      })
      .finally(() => {
        this.loading = undefined;
      });
    return this.loading;
  }
}
