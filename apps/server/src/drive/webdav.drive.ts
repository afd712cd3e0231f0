import path from 'node:path';
import type { Readable } from 'node:stream';
import { createClient, parseXML, type WebDAVClient } from 'webdav';
import { AppError } from '../errors';
import { guardedAgents, isOutboundRefusal, type OutboundPolicy } from '../net/outbound';
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
import { contentTypeFor, suffixedName } from './drive-naming';
import {
  backoffDelay,
  contentMismatch,
  hashStream,
  httpStatusOf,
  INDEX_NAME,
  isInternalName,
  isSourceError,
  isTransientHttpError,
  matches,
  metered,
  parsePathId,
  safeTarget,
  sleep,
} from './drive-stream';

/**
 * A WebDAV server as the drive (Nextcloud, ownCloud, Apache mod_dav, NAS boxes), through the npm `webdav` client.
 * Files at `<url><rootPath>Invoices/YYYY/MM/<name>`; the id is the path under the root.
 *
 * Duplicates: a WebDAV ETag is not a content hash, so each folder keeps a sidecar index `.invoicebox-index.json`
 * (name → sha256, size, ETag). An entry counts only while the file still has that size and ETag; any file of the
 * wanted size the index does not vouch for is downloaded and hashed. The index is a cache, never the truth.
 *
 * Concurrency: an upload takes a WebDAV LOCK on the folder's sidecar for its whole check-and-write, so uploads from
 * any number of instances leave exactly one copy, on servers that implement LOCK (Apache, Nextcloud, most NAS).
 * A lock counts once the lock discovery shows it as the only one (or the smallest token): Apache may grant two
 * exclusive locks to LOCKs that arrive together.
 * Without LOCK (or when another holder keeps it past `lockWaitMs`) the upload goes ahead unlocked: the PUT still uses
 * `If-None-Match: *`, so nothing is ever overwritten, but two racing uploads of the same content may both land (the
 * second under a suffixed name). A name that is taken (412) moves on to `name (2).ext` unless it holds our content.
 *
 * Errors: 401/403 are a DriveAuthError; refused connections, timeouts, 5xx, 429 and 507 are retried with backoff
 * (Retry-After honoured), then a DriveUnavailableError.
 *
 * The URL is a person's: every socket goes through the outbound policy (net/outbound.ts), which resolves the host
 * once per connection, checks the addresses and connects to a checked one; redirects the client follows are checked
 * the same way. A refused address is a DriveUnavailableError at once, without retries.
 */
export interface WebDavDriveOptions {
  url: string;
  username: string;
  password: string;
  /** Folder under `url` that is the drive's root, e.g. '/Documents'; it must exist. Default: `url` itself. */
  rootPath?: string;
  /** Backoff base in ms (tests shorten it). */
  backoffMs?: number;
  /** Retries after the first attempt of a request. */
  retries?: number;
  /** Time limit of one request without a body (ms); uploads get more per byte. */
  timeoutMs?: number;
  /** How long an upload waits for another one's lock on the same folder (ms). */
  lockWaitMs?: number;
  /** Which addresses the server may have. Default: public ones only. */
  outbound?: OutboundPolicy;
}

interface IndexEntry {
  sha256: string;
  size: number;
  etag: string | null;
}
type FolderIndex = Map<string, IndexEntry>;

/** What a PROPFIND tells about one entry (only the three properties we ask for). */
interface Entry {
  basename: string;
  type: 'file' | 'directory';
  size: number;
  etag: string | null;
}

interface FolderState {
  index: FolderIndex;
  /** Files (not folders, not internal) by name. */
  files: Map<string, Entry>;
  /** The sidecar's ETag as read, for an If-Match update when no lock is held. */
  indexEtag: string | null;
  indexExisted: boolean;
  /** The index learned or dropped entries and is worth writing back. */
  dirty: boolean;
}

const LOCK_SECONDS = 120;
const PROPFIND_BODY =
  '<?xml version="1.0" encoding="utf-8"?><d:propfind xmlns:d="DAV:"><d:prop>' +
  '<d:getcontentlength/><d:getetag/><d:resourcetype/></d:prop></d:propfind>';

const LOCKDISCOVERY_BODY =
  '<?xml version="1.0" encoding="utf-8"?><d:propfind xmlns:d="DAV:"><d:prop><d:lockdiscovery/></d:prop></d:propfind>';

interface IndexRead {
  entries: FolderIndex;
  etag: string | null;
  existed: boolean;
}

export class WebDavDriveStore implements DriveStore {
  readonly kind = 'webdav' as const;
  private readonly client: WebDAVClient;
  private readonly root: string;
  private readonly backoffMs: number;
  private readonly retries: number;
  private readonly timeoutMs: number;
  private readonly lockWaitMs: number;
  private readonly knownFolders = new Set<string>();
  private lockUnsupported = false;

  constructor(private readonly options: WebDavDriveOptions) {
    this.client = createClient(options.url, {
      username: options.username,
      password: options.password,
      ...guardedAgents(options.outbound ?? { allowPrivate: false }, { keepAlive: true, maxSockets: 8 }),
    });
    this.root = normaliseRoot(options.rootPath ?? '/');
    this.backoffMs = options.backoffMs ?? 500;
    this.retries = options.retries ?? 4;
    this.timeoutMs = options.timeoutMs ?? 60_000;
    this.lockWaitMs = options.lockWaitMs ?? 20_000;
  }

  async check(): Promise<{ root: string }> {
    const stat = await this.statOrNull(this.root).catch((error) => {
      throw this.mapped(error);
    });
    if (!stat) throw new DriveUnavailableError(`The WebDAV folder ${this.describe()} does not exist`);
    if (stat.type !== 'directory') throw new DriveUnavailableError(`${this.describe()} is not a WebDAV folder`);
    return { root: this.describe() };
  }

  async findByHash(folder: string[], sha256: string): Promise<DriveFile | null> {
    const target = safeTarget({ folder, name: 'x' }).folder;
    const dir = this.pathOf(target);
    try {
      const index = await this.readIndex(dir);
      const known = await this.knownCopy(dir, index, sha256, undefined);
      if (known) return this.file(target, known, sha256);
      const state = await this.readFolder(dir, index);
      const match = await this.findIn(dir, state, sha256, undefined);
      return match ? this.file(target, match, sha256) : null;
    } catch (error) {
      if (httpStatusOf(error) === 404) return null; // no such folder
      throw this.mapped(error);
    }
  }

  async upload(upload: DriveUpload): Promise<DriveUploadResult> {
    const { folder, name } = safeTarget(upload);
    const dir = this.pathOf(folder);
    for (let attempt = 0; ; attempt++) {
      try {
        await this.ensureFolder(folder);
        // The common case of a re-run: the index names a copy and one PROPFIND confirms it is unchanged. Finding a
        // copy writes nothing, so it needs no lock.
        const known = await this.knownCopy(dir, await this.readIndex(dir), upload.sha256, upload.size);
        if (known) return { file: this.file(folder, known, upload.sha256), created: false };
        const token = await this.lock(dir);
        try {
          return await this.uploadLocked(upload, folder, name, dir, token);
        } finally {
          if (token) await this.unlock(dir, token);
        }
      } catch (error) {
        const status = httpStatusOf(error);
        if ((status === 404 || status === 409) && attempt === 0 && this.knownFolders.has(dir)) {
          // The folder was deleted since this instance created it: make it again, once.
          this.knownFolders.delete(dir);
          continue;
        }
        throw this.mapped(error);
      }
    }
  }

  async open(id: string): Promise<DriveOpenResult> {
    const segments = parsePathId(id);
    if (!segments || isInternalName(segments.at(-1)!)) throw new DriveFileNotFoundError();
    const file = path.posix.join(this.root, ...segments);
    let response: Awaited<ReturnType<WebDAVClient['customRequest']>>;
    try {
      // A folder id must not reach GET: servers answer it with a listing or a 403, neither a file.
      const stat = await this.statOrNull(file);
      if (stat?.type !== 'file') throw new DriveFileNotFoundError();
      response = await this.call('download a file', async () => {
        // The time limit covers the answer, not the body: the server streams that to a browser at its own pace.
        const abort = new AbortController();
        const timer = setTimeout(() => abort.abort(), this.timeoutMs);
        try {
          return await this.client.customRequest(file, { method: 'GET', signal: abort.signal });
        } finally {
          clearTimeout(timer);
        }
      });
    } catch (error) {
      const status = httpStatusOf(error);
      if (status === 404 || status === 410 || status === 409) throw new DriveFileNotFoundError();
      throw this.mapped(error);
    }
    const name = segments.at(-1)!;
    const type = response.headers.get('content-type');
    return {
      kind: 'stream',
      stream: bodyOf(response),
      name,
      contentType: type && type !== 'application/octet-stream' ? type : contentTypeFor(name),
      size: Number(response.headers.get('content-length') ?? 0),
    };
  }

  // ---- upload steps ----

  private async uploadLocked(
    upload: DriveUpload,
    folder: string[],
    name: string,
    dir: string,
    token: string | null,
  ): Promise<DriveUploadResult> {
    // Read again under the lock: another upload may have filed this content since.
    const state = await this.readFolder(dir, await this.readIndex(dir));
    const existing = await this.findIn(dir, state, upload.sha256, upload.size);
    if (existing) {
      if (state.dirty) await this.writeIndex(dir, state, token);
      return { file: this.file(folder, existing, upload.sha256), created: false };
    }
    for (let n = 1; n <= 1000; n++) {
      const candidate = n === 1 ? name : suffixedName(name, n);
      if (state.files.has(candidate)) continue;
      const filePath = path.posix.join(dir, candidate);
      const written = await this.put(filePath, upload);
      if (!written) {
        // 412: someone else's file got the name first, or our own earlier attempt whose answer was lost.
        const other = await this.statOrNull(filePath);
        if (other && other.type === 'file') {
          state.files.set(candidate, other);
          if (other.size === upload.size && (await this.hashOf(filePath, other.size)) === upload.sha256) {
            state.index.set(candidate, { sha256: upload.sha256, size: other.size, etag: normaliseEtag(other.etag) });
            await this.writeIndex(dir, state, token);
            return { file: this.file(folder, other, upload.sha256), created: false };
          }
        }
        continue;
      }
      const stat: Entry = (await this.statOrNull(filePath)) ?? {
        basename: candidate,
        type: 'file',
        size: upload.size,
        etag: null,
      };
      state.files.set(candidate, stat);
      state.index.set(candidate, { sha256: upload.sha256, size: stat.size, etag: normaliseEtag(stat.etag) });
      await this.writeIndex(dir, state, token);
      return { file: this.file(folder, stat, upload.sha256), created: true };
    }
    throw new DriveUnavailableError(`No free name for ${name} in ${dir}`);
  }

  /** PUT with If-None-Match: *; false when the name is taken. Checks the bytes that went out against the hash. */
  private async put(filePath: string, upload: DriveUpload): Promise<boolean> {
    let meter: ReturnType<typeof metered> | undefined;
    const written = await this.call('upload a file', async (signal) => {
      const current = metered(upload.open());
      meter = current;
      // node-fetch pipes the body without passing its errors on: end the request ourselves when the source fails or
      // its length is not the one announced, or it would wait for bytes that never come.
      const abort = new AbortController();
      current.stream.once('error', () => abort.abort());
      current.stream.on('data', () => {
        if (current.digest().size > upload.size) abort.abort();
      });
      current.stream.once('end', () => {
        if (current.digest().size !== upload.size) abort.abort();
      });
      try {
        return await this.client.putFileContents(filePath, current.stream, {
          overwrite: false,
          headers: { 'Content-Length': String(upload.size), 'Content-Type': upload.contentType },
          signal: AbortSignal.any([abort.signal, this.bodySignal(signal, upload.size)]),
        });
      } catch (error) {
        const source = current.sourceError();
        if (source) throw source;
        if (abort.signal.aborted) throw contentMismatch(upload, current.digest());
        throw error;
      }
    });
    if (written && meter && !matches(upload, meter.digest())) {
      await this.client.deleteFile(filePath).catch(() => undefined);
      throw contentMismatch(upload, meter.digest());
    }
    return written;
  }

  /** A file the index says has this content, still with the size and ETag it had then; null otherwise. */
  private async knownCopy(
    dir: string,
    index: IndexRead,
    sha256: string,
    size: number | undefined,
  ): Promise<Entry | null> {
    const names = [...index.entries]
      .filter(([, e]) => e.sha256 === sha256 && (size === undefined || e.size === size))
      .map(([name]) => name)
      .sort();
    for (const name of names) {
      const entry = index.entries.get(name)!;
      const stat = await this.statOrNull(path.posix.join(dir, name));
      if (stat?.type === 'file' && stat.size === entry.size && normaliseEtag(stat.etag) === entry.etag) return stat;
    }
    return null;
  }

  /** The first file (by name) in the folder with this content: indexed entries first, then hashing the rest. */
  private async findIn(
    dir: string,
    state: FolderState,
    sha256: string,
    size: number | undefined,
  ): Promise<Entry | null> {
    const candidates = [...state.files.values()]
      .filter((f) => size === undefined || f.size === size)
      .sort((a, b) => (a.basename < b.basename ? -1 : 1));
    const unknown: Entry[] = [];
    for (const file of candidates) {
      const entry = state.index.get(file.basename);
      if (entry && entry.size === file.size && entry.etag === normaliseEtag(file.etag)) {
        if (entry.sha256 === sha256) return file;
      } else {
        unknown.push(file);
      }
    }
    for (const file of unknown) {
      let hash: string;
      try {
        hash = await this.hashOf(path.posix.join(dir, file.basename), file.size);
      } catch (error) {
        if (httpStatusOf(error) === 404) continue; // deleted meanwhile
        throw error;
      }
      state.index.set(file.basename, { sha256: hash, size: file.size, etag: normaliseEtag(file.etag) });
      state.dirty = true;
      if (hash === sha256) return file;
    }
    return null;
  }

  private async hashOf(filePath: string, size: number): Promise<string> {
    return this.call('download a file', async (signal) => {
      const response = await this.client.customRequest(filePath, {
        method: 'GET',
        signal: this.bodySignal(signal, size),
      });
      return (await hashStream(bodyOf(response))).sha256;
    });
  }

  // ---- folder, listing, sidecar index ----

  private async ensureFolder(folder: string[]): Promise<void> {
    const dir = this.pathOf(folder);
    if (this.knownFolders.has(dir)) return;
    const stat = await this.statOrNull(dir);
    if (stat?.type !== 'directory') {
      // MKCOL level by level below the root. 405: it exists. Apache answers a mkdir that lost a race with another
      // upload's (EEXIST) with 403 or 409, so those count as success when the folder is there now.
      for (let i = 1; i <= folder.length; i++) {
        const level = this.pathOf(folder.slice(0, i));
        const refused = await this.call('create a folder', async (signal) => {
          try {
            await this.client.createDirectory(level, { signal });
            return undefined;
          } catch (error) {
            const status = httpStatusOf(error);
            if (status === 403 || status === 405 || status === 409) return status;
            throw error;
          }
        });
        if (refused === undefined || refused === 405) continue;
        if ((await this.statOrNull(level))?.type === 'directory') continue;
        if (refused === 403) throw new DriveAuthError('The WebDAV server does not let this user create folders (403).');
        throw new DriveUnavailableError(`The WebDAV folder ${this.describe()} does not exist`);
      }
    }
    this.knownFolders.add(dir);
  }

  /** The folder's sidecar index as stored (missing or unreadable: empty; it is only a cache). */
  private async readIndex(dir: string): Promise<IndexRead> {
    try {
      const response = await this.call('read the index', (signal) =>
        this.client.customRequest(path.posix.join(dir, INDEX_NAME), { method: 'GET', signal }),
      );
      return { entries: parseIndex(await response.text()), etag: response.headers.get('etag'), existed: true };
    } catch (error) {
      if (error instanceof DriveAuthError || error instanceof DriveUnavailableError) throw error;
      return { entries: new Map(), etag: null, existed: false };
    }
  }

  /** The folder's files (one PROPFIND, Depth 1) with the index; entries of files that are gone are dropped. */
  private async readFolder(dir: string, read: IndexRead): Promise<FolderState> {
    const files = new Map<string, Entry>();
    for (const entry of await this.propfind(dir, 1)) {
      if (entry.type === 'file' && !isInternalName(entry.basename)) files.set(entry.basename, entry);
    }
    const state: FolderState = {
      index: new Map(read.entries),
      files,
      indexEtag: read.etag,
      indexExisted: read.existed,
      dirty: false,
    };
    for (const name of [...state.index.keys()]) {
      if (!files.has(name)) {
        state.index.delete(name);
        state.dirty = true;
      }
    }
    return state;
  }

  /**
   * PROPFIND asking for size, ETag and type only: a fraction of what an allprop listing costs to send and parse
   * (a 200-file folder: ~15 ms instead of ~45 ms).
   */
  private async propfind(target: string, depth: 0 | 1): Promise<Entry[]> {
    const text = await this.call(depth ? 'list a folder' : 'read a file', async (signal) => {
      const response = await this.client.customRequest(depth ? `${target}/` : target, {
        method: 'PROPFIND',
        headers: { Depth: String(depth), 'Content-Type': 'application/xml; charset=utf-8' },
        data: PROPFIND_BODY,
        signal,
      });
      return response.text();
    });
    const result = await parseXML(text);
    return result.multistatus.response.map((response) => {
      const href = String(response.href ?? '').replace(/\/+$/, '');
      const prop = (response.propstat?.prop ?? {}) as {
        getcontentlength?: unknown;
        getetag?: unknown;
        resourcetype?: unknown;
      };
      const isCollection =
        typeof prop.resourcetype === 'object' && prop.resourcetype !== null && 'collection' in prop.resourcetype;
      return {
        basename: decodeURIComponent(href.slice(href.lastIndexOf('/') + 1)),
        type: isCollection ? 'directory' : 'file',
        size: Number(prop.getcontentlength ?? 0),
        etag: prop.getetag === undefined || prop.getetag === '' ? null : String(prop.getetag),
      };
    });
  }

  private async writeIndex(dir: string, state: FolderState, token: string | null): Promise<void> {
    const body = JSON.stringify({
      version: 1,
      files: Object.fromEntries([...state.index].sort(([a], [b]) => (a < b ? -1 : 1))),
    });
    const headers: Record<string, string> = { 'Content-Type': 'application/json' };
    // Under our lock the token is the condition; otherwise If-Match, which a weak ETag (changed within the last
    // second) can never satisfy: then the update is skipped and a later upload re-hashes.
    if (token) headers.If = `(<${token}>)`;
    else if (state.indexEtag && !state.indexEtag.startsWith('W/')) headers['If-Match'] = state.indexEtag;
    else if (state.indexExisted) return;
    else headers['If-None-Match'] = '*';
    try {
      await this.call('write the index', (signal) =>
        this.client.putFileContents(path.posix.join(dir, INDEX_NAME), body, { headers, signal }),
      );
    } catch {
      // A lost race or an expired lock only costs a re-hash later.
    }
  }

  /** LOCKs the folder's sidecar; null when the server has no locking or another holder keeps it too long. */
  private async lock(dir: string): Promise<string | null> {
    if (this.lockUnsupported) return null;
    const sidecar = path.posix.join(dir, INDEX_NAME);
    const deadline = Date.now() + this.lockWaitMs;
    for (let attempt = 0; ; attempt++) {
      try {
        const { token } = await this.call('lock the index', (signal) =>
          this.client.lock(sidecar, { timeout: `Second-${LOCK_SECONDS}`, signal }),
        );
        // Apache mod_dav can grant two exclusive locks to LOCKs that arrive at the same moment: the holders see
        // each other in the lock discovery, and only the smallest token keeps its lock.
        const held = await this.lockTokens(sidecar);
        if (!held.length || (held.includes(token) && held.every((t) => t >= token))) return token;
        await this.unlock(dir, token);
      } catch (error) {
        const status = httpStatusOf(error);
        if (status === 405 || status === 501 || status === 400) {
          this.lockUnsupported = true;
          return null;
        }
        if (status !== 423) throw error;
      }
      if (Date.now() > deadline) return null;
      await sleep(Math.min(20 * 1.5 ** attempt, 250) * (0.5 + Math.random()));
    }
  }

  /** The tokens of the active locks on `target` (empty when the server does not report them). */
  private async lockTokens(target: string): Promise<string[]> {
    const text = await this.call('read the lock', async (signal) => {
      const response = await this.client.customRequest(target, {
        method: 'PROPFIND',
        headers: { Depth: '0', 'Content-Type': 'application/xml; charset=utf-8' },
        data: LOCKDISCOVERY_BODY,
        signal,
      });
      return response.text();
    });
    const result = await parseXML(text);
    const prop = (result.multistatus.response[0]?.propstat?.prop ?? {}) as { lockdiscovery?: unknown };
    const discovery = prop.lockdiscovery as { activelock?: unknown } | undefined;
    const active = [discovery?.activelock ?? []].flat() as Array<{ locktoken?: { href?: unknown } }>;
    return active.map((a) => String(a.locktoken?.href ?? '').trim()).filter(Boolean);
  }

  private async unlock(dir: string, token: string): Promise<void> {
    // The client sends the token without the angle brackets RFC 4918 requires (Apache answers 400).
    await this.client.unlock(path.posix.join(dir, INDEX_NAME), `<${token}>`).catch(() => undefined);
  }

  private async statOrNull(target: string): Promise<Entry | null> {
    try {
      return (await this.propfind(target, 0))[0] ?? null;
    } catch (error) {
      if (httpStatusOf(error) === 404) return null;
      throw error;
    }
  }

  // ---- plumbing ----

  /** One request with retries: `fn` is called again for each attempt (a body stream is opened anew). */
  private async call<T>(what: string, fn: (signal: AbortSignal) => Promise<T>): Promise<T> {
    for (let attempt = 0; ; attempt++) {
      try {
        return await fn(AbortSignal.timeout(this.timeoutMs));
      } catch (error) {
        if (isSourceError(error) || error instanceof AppError) throw error;
        if (isOutboundRefusal(error)) {
          throw new DriveUnavailableError(`The WebDAV server ${this.describe()} is not an allowed target`, error);
        }
        const status = httpStatusOf(error);
        if (status === 401 || status === 403) {
          throw new DriveAuthError(
            `The WebDAV server refused the user name or password (${status}); reconnect the drive in Settings.`,
          );
        }
        if (!isTransient(error)) throw error;
        if (attempt >= this.retries) {
          throw new DriveUnavailableError(
            `The WebDAV server could not ${what}: ${status ? `HTTP ${status}` : describeError(error)}`,
          );
        }
        const retryAfter = (error as { response?: { headers?: Headers } }).response?.headers?.get?.('retry-after');
        await sleep(backoffDelay(this.backoffMs, attempt, retryAfter));
      }
    }
  }

  /** Uploads and downloads get a time limit that grows with the size (at least 64 KiB/s). */
  private bodySignal(base: AbortSignal, size = 0): AbortSignal {
    if (size <= 0) return base;
    return AbortSignal.timeout(this.timeoutMs + Math.ceil(size / 65_536) * 1000);
  }

  private mapped(error: unknown): Error {
    if (error instanceof AppError || isSourceError(error)) return error as Error;
    const status = httpStatusOf(error);
    return new AppError(`The WebDAV server refused the request (${status ?? describeError(error)})`, {
      code: 'drive_error',
      status: 502,
      cause: error,
    });
  }

  private pathOf(folder: string[]): string {
    return path.posix.join(this.root, ...folder);
  }

  /** The drive's root URL, without any user name or password written into it (it goes into messages and logs). */
  private describe(): string {
    const url = new URL(this.root.replace(/^\//, ''), this.options.url.replace(/\/?$/, '/'));
    url.username = '';
    url.password = '';
    return url.toString();
  }

  private file(folder: string[], stat: Entry, sha256: string): DriveFile {
    return {
      id: [...folder, stat.basename].join('/'),
      name: stat.basename,
      folder,
      size: stat.size,
      sha256,
      webUrl: null,
    };
  }
}

function normaliseRoot(rootPath: string): string {
  const segments = rootPath.split('/').filter(Boolean);
  if (segments.some((s) => s === '.' || s === '..'))
    throw new AppError('Invalid WebDAV folder', { code: 'validation_failed', status: 400 });
  return `/${segments.join('/')}`;
}

/** Apache marks an ETag weak for the first second after a change; it is the same tag afterwards. */
function normaliseEtag(etag: string | null | undefined): string | null {
  return etag ? etag.replace(/^W\//, '').replace(/"/g, '') : null;
}

function parseIndex(text: string): FolderIndex {
  const index: FolderIndex = new Map();
  let data: { version?: unknown; files?: unknown };
  try {
    data = JSON.parse(text);
  } catch {
    return index;
  }
  if (data?.version !== 1 || !data.files || typeof data.files !== 'object') return index;
  for (const [name, entry] of Object.entries(data.files as Record<string, unknown>)) {
    const e = entry as Partial<IndexEntry> | null;
    if (
      e &&
      typeof e.sha256 === 'string' &&
      /^[0-9a-f]{64}$/.test(e.sha256) &&
      typeof e.size === 'number' &&
      (typeof e.etag === 'string' || e.etag === null)
    ) {
      index.set(name, { sha256: e.sha256, size: e.size, etag: e.etag });
    }
  }
  return index;
}

/** The body of a node-fetch response: a Node stream (the client's types describe the web Response). */
function bodyOf(response: unknown): Readable {
  return (response as { body: Readable }).body;
}

/** The webdav client's own aborts and socket failures count as transient too (beside the shared rules). */
function isTransient(error: unknown): boolean {
  const e = error as { name?: string; type?: string };
  return isTransientHttpError(error) || e.name === 'AbortError' || e.type === 'aborted' || e.type === 'system';
}

function describeError(error: unknown): string {
  const e = error as { code?: string; name?: string; message?: string };
  if (e.name === 'AbortError' || e.name === 'TimeoutError') return 'timed out';
  return e.code ?? e.message ?? String(error);
}
