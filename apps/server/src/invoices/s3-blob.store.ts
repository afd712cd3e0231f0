import { createReadStream } from 'node:fs';
import { Readable } from 'node:stream';
import {
  AbortMultipartUploadCommand,
  DeleteObjectCommand,
  GetObjectCommand,
  HeadBucketCommand,
  HeadObjectCommand,
  ListMultipartUploadsCommand,
  ListObjectsV2Command,
  S3Client,
  S3ServiceException,
} from '@aws-sdk/client-s3';
import { Upload } from '@aws-sdk/lib-storage';
import type { S3Config } from '../config';
import { ConfigError, ValidationError } from '../errors';
import { type BlobStore, MissingBlobError } from './blob.store';

const SHA256 = /^[0-9a-f]{64}$/;
/** Parts of a multipart upload: a 50 MB file is 7 parts, and at most QUEUE_SIZE of them are in memory at once. */
export const S3_PART_BYTES = 8 * 1024 * 1024;
const QUEUE_SIZE = 2;

/** One client per configuration: its sockets are shared by the `documents` and `uploads` stores. */
export function createS3Client(config: S3Config): S3Client {
  return new S3Client({
    endpoint: config.endpoint,
    region: config.region,
    forcePathStyle: config.forcePathStyle,
    // A copy: the SDK marks where credentials came from on the object itself, and the configuration's is frozen.
    credentials: config.credentials ? { ...config.credentials } : undefined,
    // The newer SDKs add CRC32 trailers to every upload, which several S3-compatible servers (older MinIO, Ceph
    // RGW, Garage) refuse; a blob's SHA-256 is its key and is verified by `blobs check` and `blobs migrate` instead.
    requestChecksumCalculation: 'WHEN_REQUIRED',
    responseChecksumValidation: 'WHEN_REQUIRED',
  });
}

/** Start-up check: the bucket is there and these credentials may use it; otherwise a message saying which. */
export async function verifyS3Bucket(client: S3Client, config: S3Config): Promise<void> {
  try {
    await client.send(new HeadBucketCommand({ Bucket: config.bucket }));
  } catch (error) {
    const status = statusOf(error);
    const where = `S3 bucket '${config.bucket}' at ${config.endpoint ?? `AWS S3 (${config.region})`}`;
    const reason =
      status === 404
        ? 'does not exist: create it, or correct S3_BUCKET'
        : status === 403 || status === 401
          ? 'refuses these credentials: check S3_ACCESS_KEY_ID and S3_SECRET_ACCESS_KEY'
          : status === 301 || status === 400
            ? `answered ${status}: check S3_REGION and S3_FORCE_PATH_STYLE`
            : `cannot be reached (${(error as Error).message}): check S3_ENDPOINT`;
    throw new ConfigError(`DOCUMENT_STORE=s3: ${where} ${reason}`);
  }
}

/**
 * The document store in any S3-compatible bucket (AWS S3, Cloudflare R2, MinIO, Ceph RGW, Garage), for deployments
 * that keep bytes out of the database. Objects are `<prefix><sha256>`, the prefix naming the namespace (`documents/`,
 * `uploads/`). Writes go through lib-storage's multipart upload: a file is read in parts of 8 MiB (never whole in
 * memory), and the object only appears when the upload completes — a writer killed mid-way leaves invisible parts
 * that `sweepTemp` aborts, and a writer that fails aborts its own. `If-None-Match: *` makes the first writer of a
 * hash win; a server that ignores it overwrites the object with the same bytes, which is harmless.
 */
export class S3BlobStore implements BlobStore {
  constructor(
    private readonly client: S3Client,
    private readonly bucket: string,
    /** Separates namespaces inside the bucket, e.g. `documents/`. */
    private readonly prefix: string,
    /** Objects older than this are removed by `sweepTemp` (the `uploads` namespace: nothing lives there for long). */
    private readonly expireObjectsAfterMs?: number,
  ) {}

  keyOf(sha256: string): string {
    if (!SHA256.test(sha256)) throw new ValidationError('not a SHA-256 hex digest');
    return `${this.prefix}${sha256}`;
  }

  async put(sha256: string, bytes: Uint8Array): Promise<void> {
    const key = this.keyOf(sha256);
    if (await this.has(sha256)) return;
    await this.upload(key, Buffer.from(bytes.buffer, bytes.byteOffset, bytes.byteLength));
  }

  async putFile(sha256: string, file: string): Promise<void> {
    const key = this.keyOf(sha256);
    if (await this.has(sha256)) return;
    await this.upload(key, createReadStream(file, { highWaterMark: 1024 * 1024 }));
  }

  /** Streams `body` into `key` (one PUT when small, a multipart upload when larger); only this writes. */
  async upload(key: string, body: Buffer | Readable): Promise<void> {
    const upload = new Upload({
      client: this.client,
      params: { Bucket: this.bucket, Key: key, Body: body, IfNoneMatch: '*' },
      partSize: S3_PART_BYTES,
      queueSize: QUEUE_SIZE,
      // On failure the parts are deleted (AbortMultipartUpload): nothing stays behind but what a killed process left.
      leavePartsOnError: false,
    });
    try {
      await upload.done();
    } catch (error) {
      // Another writer stored the same hash first (412), or is completing it right now (409): the bytes are there.
      const status = statusOf(error);
      if (status === 412 || status === 409) return;
      throw error;
    }
  }

  async get(sha256: string): Promise<Buffer> {
    const key = this.keyOf(sha256);
    try {
      const response = await this.client.send(new GetObjectCommand({ Bucket: this.bucket, Key: key }));
      return Buffer.from(
        await (response.Body as { transformToByteArray(): Promise<Uint8Array> }).transformToByteArray(),
      );
    } catch (error) {
      throw notFoundOr(error, sha256);
    }
  }

  async has(sha256: string): Promise<boolean> {
    const key = this.keyOf(sha256);
    try {
      await this.client.send(new HeadObjectCommand({ Bucket: this.bucket, Key: key }));
      return true;
    } catch (error) {
      if (statusOf(error) === 404) return false;
      throw error;
    }
  }

  /** The object's body as it arrives from the server: a large download never sits whole in memory. */
  stream(sha256: string): Readable {
    const key = this.keyOf(sha256);
    const { client, bucket } = this;
    return Readable.from(
      (async function* () {
        let body: AsyncIterable<Uint8Array>;
        try {
          const response = await client.send(new GetObjectCommand({ Bucket: bucket, Key: key }));
          body = response.Body as unknown as AsyncIterable<Uint8Array>;
        } catch (error) {
          throw notFoundOr(error, sha256);
        }
        for await (const chunk of body) yield Buffer.from(chunk);
      })(),
      { objectMode: false },
    );
  }

  async delete(sha256: string): Promise<void> {
    await this.client.send(new DeleteObjectCommand({ Bucket: this.bucket, Key: this.keyOf(sha256) }));
  }

  /**
   * Aborts multipart uploads of this namespace begun more than `olderThanMs` ago (writers that were killed), and in
   * a namespace with an expiry deletes the objects older than that. Returns how many it removed. A bucket lifecycle
   * rule (AbortIncompleteMultipartUpload) does the first as well, where the operator has set one.
   */
  async sweepTemp(olderThanMs = 24 * 60 * 60_000): Promise<number> {
    let removed = 0;
    const before = Date.now() - olderThanMs;
    let keyMarker: string | undefined;
    let uploadIdMarker: string | undefined;
    do {
      const page = await this.client.send(
        new ListMultipartUploadsCommand({
          Bucket: this.bucket,
          Prefix: this.prefix,
          KeyMarker: keyMarker,
          UploadIdMarker: uploadIdMarker,
        }),
      );
      for (const upload of page.Uploads ?? []) {
        if (!upload.Key || !upload.UploadId || (upload.Initiated && upload.Initiated.getTime() > before)) continue;
        await this.client
          .send(new AbortMultipartUploadCommand({ Bucket: this.bucket, Key: upload.Key, UploadId: upload.UploadId }))
          .catch((error: unknown) => {
            if (statusOf(error) !== 404) throw error; // another process aborted or completed it meanwhile
          });
        removed += 1;
      }
      keyMarker = page.IsTruncated ? page.NextKeyMarker : undefined;
      uploadIdMarker = page.IsTruncated ? page.NextUploadIdMarker : undefined;
    } while (keyMarker);
    if (this.expireObjectsAfterMs !== undefined) {
      const expiredBefore = Date.now() - this.expireObjectsAfterMs;
      for await (const object of this.list()) {
        if (object.lastModified.getTime() < expiredBefore) {
          await this.client.send(new DeleteObjectCommand({ Bucket: this.bucket, Key: object.key }));
          removed += 1;
        }
      }
    }
    return removed;
  }

  /** Every object of this namespace, page by page. */
  async *list(): AsyncGenerator<{ key: string; sha256: string; size: number; lastModified: Date }> {
    let token: string | undefined;
    do {
      const page = await this.client.send(
        new ListObjectsV2Command({ Bucket: this.bucket, Prefix: this.prefix, ContinuationToken: token }),
      );
      for (const object of page.Contents ?? []) {
        if (!object.Key) continue;
        yield {
          key: object.Key,
          sha256: object.Key.slice(this.prefix.length),
          size: object.Size ?? 0,
          lastModified: object.LastModified ?? new Date(0),
        };
      }
      token = page.IsTruncated ? page.NextContinuationToken : undefined;
    } while (token);
  }
}

function statusOf(error: unknown): number | undefined {
  if (error instanceof S3ServiceException) return error.$metadata.httpStatusCode;
  const metadata = (error as { $metadata?: { httpStatusCode?: number } } | null)?.$metadata;
  return metadata?.httpStatusCode;
}

function notFoundOr(error: unknown, sha256: string): unknown {
  return statusOf(error) === 404 ? new MissingBlobError(`No stored document ${sha256.slice(0, 12)}…`) : error;
}
