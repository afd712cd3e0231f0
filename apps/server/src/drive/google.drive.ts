import { createHash } from 'node:crypto';
import { Readable } from 'node:stream';
import { drive, type drive_v3, auth as googleAuth, type MethodOptions } from '@googleapis/drive';
import { AppError } from '../errors';
import {
  DriveAuthError,
  type DriveFile,
  DriveFileNotFoundError,
  type DriveOpenResult,
  type DriveStore,
  DriveUnavailableError,
  type DriveUpload,
  type DriveUploadResult,
} from './drive.store';
import { suffixedName } from './drive-naming';
import {
  backoffDelay,
  contentMismatch,
  httpStatusOf,
  isSourceError,
  isTransientHttpError,
  matches,
  metered,
  safeTarget,
  sleep,
} from './drive-stream';

/**
 * Google Drive as the drive, through the Drive API v3 (@googleapis/drive). Folders 'Invoices/YYYY/MM' are found or
 * created under My Drive's root (ids cached per instance); the id of a file is its Drive file id and the Drive button
 * redirects to its webViewLink.
 *
 * Duplicates: every file we upload carries appProperties {sha256, md5, invoiceId}; a file of the folder with the
 * wanted sha256 is the duplicate, unless Drive's own md5Checksum or size show that its content was replaced since.
 * Small files go up as one multipart request, larger ones (`resumableThreshold`, 5 MiB) as a resumable upload in
 * chunks, each chunk resumed where Drive says it stopped after a failure.
 *
 * Concurrency: Drive has no conditional create, so two uploads of the same content can both land. After each upload
 * the folder is asked again for that content; when an older copy exists, ours is deleted and the older one returned
 * (every instance applies the same rule, so they converge on one copy as soon as each sees the other's file in the
 * listing). The same goes for a folder created twice and for a name taken concurrently by other content (ours is
 * renamed to a free suffixed name).
 *
 * Errors: 401 asks for a fresh token once, then is a DriveAuthError (as are 403s other than rate limits); 429,
 * 403 rate limits, 5xx and network failures are retried with backoff (Retry-After honoured), then
 * DriveUnavailableError; a full Drive (storageQuotaExceeded) is a DriveUnavailableError at once.
 */
export interface GoogleDriveStoreOptions {
  /** A live access token; `forceRefresh` after Drive refused the previous one. */
  accessToken: (forceRefresh: boolean) => Promise<string>;
  /** Tests point this at a local server speaking the Drive REST wire format. */
  rootUrl?: string;
  /** Backoff base in ms (tests shorten it). */
  backoffMs?: number;
  /** Uploads larger than this many bytes are resumable (default 5 MiB). */
  resumableThreshold?: number;
  /** Bytes per request of a resumable upload; a multiple of 256 KiB (default 8 MiB). */
  chunkSize?: number;
  /** Sees every request URL before it is sent; throwing refuses it (tests keep everything on 127.0.0.1). */
  guard?: (url: URL) => void;
}

const FOLDER_MIME = 'application/vnd.google-apps.folder';
const FILE_FIELDS = 'id,name,size,webViewLink,appProperties,md5Checksum,createdTime';
const LIST_FIELDS = `nextPageToken,files(${FILE_FIELDS})`;
const DEFAULT_ROOT_URL = 'https://www.googleapis.com/';
const MiB = 1024 * 1024;
const ATTEMPTS = 6;

type Adapter = NonNullable<MethodOptions['adapter']>;

export class GoogleDriveStore implements DriveStore {
  readonly kind = 'google' as const;
  private readonly api: drive_v3.Drive;
  private readonly oauth = new googleAuth.OAuth2();
  private readonly rootUrl: string;
  private readonly methodOptions: MethodOptions;
  private readonly folderIds = new Map<string, string>();
  private tokenLoaded = false;

  constructor(private readonly options: GoogleDriveStoreOptions) {
    this.rootUrl = (options.rootUrl ?? DEFAULT_ROOT_URL).replace(/\/?$/, '/');
    const guard = options.guard;
    const adapter: Adapter | undefined = guard
      ? (((o, next) => {
          guard(new URL(String(o.url)));
          return next(o);
        }) as Adapter)
      : undefined;
    // Media uploads ignore the global rootUrl (RECIPES §6): every call gets it again in its own options.
    this.methodOptions = { retry: false, rootUrl: this.rootUrl, ...(adapter ? { adapter } : {}) };
    this.api = drive({ version: 'v3', auth: this.oauth, rootUrl: this.rootUrl, ...(adapter ? { adapter } : {}) });
  }

  async check(): Promise<{ root: string }> {
    const about = await this.call('read the account', (o) => this.api.about.get({ fields: 'user(emailAddress)' }, o));
    const email = about.user?.emailAddress;
    return { root: email ? `Google Drive (${email})` : 'Google Drive' };
  }

  async findByHash(folder: string[], sha256: string): Promise<DriveFile | null> {
    const target = safeTarget({ folder, name: 'x' }).folder;
    const folderId = await this.folderId(target, false);
    if (!folderId) return null;
    const [found] = await this.byHash(folderId, sha256, undefined);
    return found ? toDriveFile(found, target, sha256) : null;
  }

  async upload(upload: DriveUpload): Promise<DriveUploadResult> {
    const { folder, name } = safeTarget(upload);
    for (let attempt = 0; ; attempt++) {
      const cached = this.folderIds.has(folder.join('/'));
      try {
        return await this.uploadInto(upload, folder, name);
      } catch (error) {
        if ((error as AppError).code === 'drive_gone' && cached && attempt === 0) {
          // The folder was deleted since this instance found it: look it up (or make it) again, once.
          this.folderIds.clear();
          continue;
        }
        throw error;
      }
    }
  }

  async open(id: string): Promise<DriveOpenResult> {
    if (typeof id !== 'string' || !/^[A-Za-z0-9_-]{1,256}$/.test(id)) throw new DriveFileNotFoundError();
    let file: drive_v3.Schema$File;
    try {
      file = await this.call('read a file', (o) =>
        this.api.files.get({ fileId: id, fields: 'id,name,mimeType,webViewLink,trashed' }, o),
      );
    } catch (error) {
      if ((error as AppError).code === 'drive_gone') throw new DriveFileNotFoundError();
      throw error;
    }
    if (file.trashed || file.mimeType === FOLDER_MIME) throw new DriveFileNotFoundError();
    return {
      kind: 'redirect',
      url: file.webViewLink ?? `https://drive.google.com/file/d/${encodeURIComponent(id)}/view`,
    };
  }

  // ---- upload steps ----

  private async uploadInto(upload: DriveUpload, folder: string[], name: string): Promise<DriveUploadResult> {
    const folderId = (await this.folderId(folder, true))!;
    const [existing] = await this.byHash(folderId, upload.sha256, upload.size);
    if (existing) return { file: toDriveFile(existing, folder, upload.sha256), created: false };

    const freeName = await this.freeName(folderId, name, null);
    const created =
      upload.size > (this.options.resumableThreshold ?? 5 * MiB)
        ? await this.resumable(upload, folderId, freeName)
        : await this.multipart(upload, folderId, freeName);

    // Converge with a concurrent upload of the same content: the oldest copy stays, ours goes.
    const [keeper] = await this.byHash(folderId, upload.sha256, upload.size);
    if (keeper && keeper.id !== created.id) {
      await this.call('delete a duplicate', (o) => this.api.files.delete({ fileId: created.id! }, o)).catch(() => {});
      return { file: toDriveFile(keeper, folder, upload.sha256), created: false };
    }
    // Another file took the same name at the same time: the newer one moves on to a free suffixed name.
    const namesakes = await this.list(`'${q(folderId)}' in parents and name = '${q(freeName)}' and trashed = false`);
    if (namesakes.some((f) => f.id !== created.id && isOlder(f, created))) {
      const renamed = await this.freeName(folderId, name, created.id!);
      const updated = await this.call('rename a file', (o) =>
        this.api.files.update({ fileId: created.id!, requestBody: { name: renamed }, fields: FILE_FIELDS }, o),
      );
      return { file: toDriveFile(updated, folder, upload.sha256), created: true };
    }
    return { file: toDriveFile(created, folder, upload.sha256), created: true };
  }

  private metadata(upload: DriveUpload, folderId: string, name: string, md5: string): drive_v3.Schema$File {
    return {
      name,
      parents: [folderId],
      mimeType: upload.contentType,
      appProperties: { sha256: upload.sha256, md5, invoiceId: upload.invoiceId },
    };
  }

  /** One multipart request; the bytes are read and checked first (at most `resumableThreshold` of them). */
  private async multipart(upload: DriveUpload, folderId: string, name: string): Promise<drive_v3.Schema$File> {
    const { bytes, md5 } = await readChecked(upload);
    return this.call('upload a file', (o) =>
      this.api.files.create(
        {
          requestBody: this.metadata(upload, folderId, name, md5),
          media: { mimeType: upload.contentType, body: Readable.from([bytes]) },
          fields: FILE_FIELDS,
        },
        o,
      ),
    );
  }

  /**
   * A resumable upload (uploadType=resumable): a session, then the bytes in chunks. A failed chunk is resumed from
   * the offset Drive reports; an expired session (404/410) starts over.
   */
  private async resumable(upload: DriveUpload, folderId: string, name: string): Promise<drive_v3.Schema$File> {
    // A first pass checks the bytes and gets the md5 for the metadata, so a bad blob never starts a session.
    const { md5 } = await hashChecked(upload);
    const chunkSize = Math.max(256 * 1024, Math.floor((this.options.chunkSize ?? 8 * MiB) / (256 * 1024)) * 256 * 1024);
    return this.call('upload a file', async () => {
      const session = await this.raw({
        method: 'POST',
        url: `${this.rootUrl}upload/drive/v3/files?uploadType=resumable&fields=${encodeURIComponent(FILE_FIELDS)}`,
        headers: {
          'Content-Type': 'application/json; charset=UTF-8',
          'X-Upload-Content-Type': upload.contentType,
          'X-Upload-Content-Length': String(upload.size),
        },
        data: JSON.stringify(this.metadata(upload, folderId, name, md5)),
      });
      const location = session.headers.get('location');
      if (!location) throw new AppError('Google Drive started no upload session', { code: 'drive_error', status: 502 });
      const meter = metered(upload.open());
      let offset = 0;
      try {
        for await (const chunk of chunks(meter.stream, chunkSize)) {
          if (offset + chunk.length > upload.size) throw contentMismatch(upload, meter.digest());
          const last = offset + chunk.length === upload.size;
          const done = await this.sendChunk(location, chunk, offset, upload.size);
          offset += chunk.length;
          if (done) {
            if (!last) throw new AppError('Google Drive ended the upload early', { code: 'drive_error', status: 502 });
            return { data: done };
          }
        }
      } catch (error) {
        throw meter.sourceError() ?? error;
      }
      throw contentMismatch(upload, meter.digest());
    });
  }

  /** Sends one chunk; the file once Drive has all bytes, else null. Resumes within the chunk after failures. */
  private async sendChunk(
    location: string,
    chunk: Buffer,
    offset: number,
    total: number,
  ): Promise<drive_v3.Schema$File | null> {
    let sent = 0; // bytes of this chunk Drive has confirmed
    for (let attempt = 0; ; attempt++) {
      try {
        const end = offset + chunk.length - 1;
        const response = await this.raw({
          method: 'PUT',
          url: location,
          headers: { 'Content-Range': `bytes ${offset + sent}-${end}/${total}` },
          data: chunk.subarray(sent),
        });
        if (response.status !== 308) return parseFile(response.data);
        const confirmed = confirmedBytes(response.headers.get('range'));
        if (confirmed >= offset + chunk.length) return null;
        sent = Math.max(sent, confirmed - offset); // Drive kept only part: send the rest
        continue;
      } catch (error) {
        const status = httpStatusOf(error);
        if (status === 404 || status === 410) {
          // The session is gone: the whole upload starts over (through call()).
          throw Object.assign(new Error('Google Drive upload session expired'), { status: 503 });
        }
        if (!isTransientHttpError(error) || attempt >= ATTEMPTS - 1) throw error;
        await sleep(backoffDelay(this.options.backoffMs ?? 1000, attempt, retryAfterOf(error)));
      }
      // Where did it stop? (PUT with "bytes */total")
      const status = await this.raw({
        method: 'PUT',
        url: location,
        headers: { 'Content-Range': `bytes */${total}` },
        data: '',
      }).catch((error) => {
        if (isTransientHttpError(error)) return null; // ask again after the next attempt
        throw error;
      });
      if (!status) continue;
      if (status.status !== 308) return parseFile(status.data);
      const confirmed = confirmedBytes(status.headers.get('range'));
      if (confirmed < offset) {
        throw Object.assign(new Error('Google Drive lost part of an upload'), { status: 503 });
      }
      if (confirmed >= offset + chunk.length) return null;
      sent = confirmed - offset;
    }
  }

  /** A request outside the generated client (the resumable protocol), with the same token and guard. */
  private raw(request: { method: 'POST' | 'PUT'; url: string; headers: Record<string, string>; data: unknown }) {
    return this.oauth.request<string>({
      ...request,
      retry: false,
      responseType: 'text',
      validateStatus: (s: number) => (s >= 200 && s < 300) || s === 308,
      errorRedactor: redactError,
      ...(this.methodOptions.adapter ? { adapter: this.methodOptions.adapter } : {}),
    });
  }

  // ---- folders, queries ----

  /** Id of the folder path under My Drive, created when missing and `create` is set. */
  private async folderId(folder: string[], create: boolean): Promise<string | null> {
    let parent = 'root';
    for (let i = 0; i < folder.length; i++) {
      const key = folder.slice(0, i + 1).join('/');
      const cached = this.folderIds.get(key);
      if (cached) {
        parent = cached;
        continue;
      }
      const name = folder[i]!;
      const query = `'${q(parent)}' in parents and name = '${q(name)}' and mimeType = '${FOLDER_MIME}' and trashed = false`;
      let [found] = await this.list(query, 'files(id,createdTime)');
      if (!found) {
        if (!create) return null;
        const made = await this.call('create a folder', (o) =>
          this.api.files.create(
            { requestBody: { name, mimeType: FOLDER_MIME, parents: [parent] }, fields: 'id,createdTime' },
            o,
          ),
        );
        // Another instance may have made the same folder meanwhile: all settle on the oldest.
        [found] = await this.list(query, 'files(id,createdTime)');
        if (found && found.id !== made.id) {
          await this.call('delete a duplicate folder', (o) => this.api.files.delete({ fileId: made.id! }, o)).catch(
            () => {},
          );
        }
        found ??= made;
      }
      parent = found.id!;
      this.folderIds.set(key, parent);
    }
    return parent;
  }

  /** Files of the folder with this content, oldest first. */
  private async byHash(folderId: string, sha256: string, size: number | undefined): Promise<drive_v3.Schema$File[]> {
    const files = await this.list(
      `'${q(folderId)}' in parents and appProperties has { key='sha256' and value='${q(sha256)}' } and trashed = false`,
    );
    // Someone may have replaced the content since (a new revision keeps the appProperties): Drive's md5 tells.
    return files.filter(
      (f) =>
        (size === undefined || f.size == null || Number(f.size) === size) &&
        (!f.appProperties?.md5 || !f.md5Checksum || f.appProperties.md5 === f.md5Checksum),
    );
  }

  /** `name`, or the first `name (n)` no other file of the folder has. */
  private async freeName(folderId: string, name: string, self: string | null): Promise<string> {
    for (let n = 1; n <= 1000; n++) {
      const candidate = n === 1 ? name : suffixedName(name, n);
      const taken = await this.list(
        `'${q(folderId)}' in parents and name = '${q(candidate)}' and trashed = false`,
        'files(id)',
      );
      if (!taken.some((f) => f.id !== self)) return candidate;
    }
    throw new DriveUnavailableError(`No free name for ${name} in Google Drive`);
  }

  /** All pages of a files.list query, oldest first (ties by id, so every instance picks the same one). */
  private async list(query: string, filesFields = `files(${FILE_FIELDS})`): Promise<drive_v3.Schema$File[]> {
    const out: drive_v3.Schema$File[] = [];
    let pageToken: string | undefined;
    do {
      const page = await this.call('list files', (o) =>
        this.api.files.list(
          {
            q: query,
            fields: filesFields === `files(${FILE_FIELDS})` ? LIST_FIELDS : `nextPageToken,${filesFields}`,
            pageSize: 100,
            spaces: 'drive',
            ...(pageToken ? { pageToken } : {}),
          },
          o,
        ),
      );
      out.push(...(page.files ?? []));
      pageToken = page.nextPageToken ?? undefined;
    } while (pageToken);
    return out.sort((a, b) => (isOlder(a, b) ? -1 : isOlder(b, a) ? 1 : 0));
  }

  /** One API call with the access token, backoff on rate limits and failures, one token refresh on 401. */
  private async call<T>(what: string, fn: (options: MethodOptions) => Promise<{ data: T }>): Promise<T> {
    let refreshed = false;
    let reload = false;
    for (let attempt = 0; ; attempt++) {
      if (!this.tokenLoaded || reload) {
        this.oauth.setCredentials({ access_token: await this.options.accessToken(reload) });
        this.tokenLoaded = true;
        reload = false;
      }
      try {
        return (await fn(this.methodOptions)).data;
      } catch (error) {
        if (isSourceError(error) || error instanceof AppError) throw error;
        const status = httpStatusOf(error);
        // Google puts the reason (rateLimitExceeded, storageQuotaExceeded, ...) in the body's error.errors[].reason.
        const reason = JSON.stringify((error as { response?: { data?: unknown } }).response?.data ?? '');
        if (status === 401 && !refreshed) {
          refreshed = true;
          reload = true;
          continue;
        }
        if (status === 401) {
          throw new DriveAuthError('Google Drive refused the access token; reconnect the drive in Settings.');
        }
        const rateLimited =
          status === 429 || (status === 403 && /rateLimitExceeded|userRateLimitExceeded/.test(reason));
        if (rateLimited || isTransientHttpError(error)) {
          if (attempt < ATTEMPTS - 1) {
            await sleep(backoffDelay(this.options.backoffMs ?? 1000, attempt, retryAfterOf(error)));
            continue;
          }
          throw new DriveUnavailableError(
            `Google Drive could not ${what}: ${rateLimited ? 'rate limit' : status ? `HTTP ${status}` : (error as Error).message}`,
          );
        }
        if (status === 403 && /storageQuotaExceeded|quotaExceeded/.test(reason)) {
          throw new DriveUnavailableError('Google Drive is full (storage quota exceeded)');
        }
        if (status === 403) {
          throw new DriveAuthError(
            'Google Drive refused access (missing permission); reconnect the drive in Settings.',
          );
        }
        if (status === 404) {
          throw new AppError('Google Drive has no such file or folder', {
            code: 'drive_gone',
            status: 404,
            cause: error,
          });
        }
        if (status === undefined) throw error; // not an HTTP answer: a bug or the guard, not the drive
        throw new AppError(`Google Drive refused to ${what} (${status}): ${(error as Error).message}`, {
          code: 'drive_error',
          status: 502,
          cause: error,
        });
      }
    }
  }
}

type Redactor = NonNullable<MethodOptions['errorRedactor']>;
interface RedactedConfig {
  data?: unknown;
  body?: unknown;
  headers?: { delete?: (name: string) => void };
}

/**
 * gaxios's default redactor walks a Buffer body byte by byte (1.5 s for a 6 MiB chunk on every failed PUT): errors of
 * our own requests drop the body and the token instead.
 */
const redactError = ((data: { config?: RedactedConfig; response?: { config?: RedactedConfig } }) => {
  for (const config of [data.config, data.response?.config]) {
    if (!config) continue;
    config.data = undefined;
    config.body = undefined;
    config.headers?.delete?.('authorization');
  }
  return data;
}) as unknown as Redactor;

function toDriveFile(file: drive_v3.Schema$File, folder: string[], sha256: string): DriveFile {
  return {
    id: file.id!,
    name: file.name ?? '',
    folder,
    size: Number(file.size ?? 0),
    sha256: file.appProperties?.sha256 ?? sha256,
    webUrl: file.webViewLink ?? `https://drive.google.com/file/d/${encodeURIComponent(file.id!)}/view`,
  };
}

/** A string literal inside a Drive query. */
function q(value: string): string {
  return value.replace(/\\/g, '\\\\').replace(/'/g, "\\'");
}

function isOlder(a: drive_v3.Schema$File, b: drive_v3.Schema$File): boolean {
  const ta = Date.parse(a.createdTime ?? '') || 0;
  const tb = Date.parse(b.createdTime ?? '') || 0;
  return ta !== tb ? ta < tb : (a.id ?? '') < (b.id ?? '');
}

/** All bytes of an upload (a small one), checked against its size and SHA-256, and their md5 for Drive. */
async function readChecked(upload: DriveUpload): Promise<{ bytes: Buffer; md5: string }> {
  const meter = metered(upload.open());
  const parts: Buffer[] = [];
  let length = 0;
  try {
    for await (const chunk of meter.stream) {
      parts.push(chunk as Buffer);
      length += (chunk as Buffer).length;
      if (length > upload.size) throw contentMismatch(upload, meter.digest());
    }
  } catch (error) {
    throw meter.sourceError() ?? error;
  }
  if (!matches(upload, meter.digest())) throw contentMismatch(upload, meter.digest());
  const bytes = Buffer.concat(parts);
  return { bytes, md5: createHash('md5').update(bytes).digest('hex') };
}

async function hashChecked(upload: DriveUpload): Promise<{ md5: string }> {
  const meter = metered(upload.open());
  const md5 = createHash('md5');
  try {
    for await (const chunk of meter.stream) {
      md5.update(chunk as Buffer);
      if (meter.digest().size > upload.size) throw contentMismatch(upload, meter.digest());
    }
  } catch (error) {
    throw meter.sourceError() ?? error;
  }
  if (!matches(upload, meter.digest())) throw contentMismatch(upload, meter.digest());
  return { md5: md5.digest('hex') };
}

/** The stream cut into pieces of exactly `size` bytes (the last one shorter). */
async function* chunks(stream: Readable, size: number): AsyncGenerator<Buffer> {
  let parts: Buffer[] = [];
  let length = 0;
  for await (const data of stream) {
    let buf = data as Buffer;
    while (length + buf.length >= size) {
      const take = size - length;
      parts.push(buf.subarray(0, take));
      yield Buffer.concat(parts);
      parts = [];
      length = 0;
      buf = buf.subarray(take);
    }
    if (buf.length > 0) {
      parts.push(buf);
      length += buf.length;
    }
  }
  if (length > 0) yield Buffer.concat(parts);
}

/** Bytes Drive has, from a 308's `Range: bytes=0-N` (none without the header). */
function confirmedBytes(range: string | null): number {
  const match = /bytes=0-(\d+)/.exec(range ?? '');
  return match ? Number(match[1]) + 1 : 0;
}

function parseFile(data: unknown): drive_v3.Schema$File {
  const file = (typeof data === 'string' ? JSON.parse(data || '{}') : data) as drive_v3.Schema$File;
  if (!file?.id)
    throw new AppError('Google Drive answered an upload without a file', { code: 'drive_error', status: 502 });
  return file;
}

function retryAfterOf(error: unknown): string | null {
  const headers = (error as { response?: { headers?: unknown } }).response?.headers;
  if (headers && typeof (headers as Headers).get === 'function') return (headers as Headers).get('retry-after');
  return ((headers as Record<string, string> | undefined)?.['retry-after'] as string | undefined) ?? null;
}
