import { createHash, randomBytes } from 'node:crypto';
import http from 'node:http';
import type { AddressInfo } from 'node:net';

/**
 * A local server speaking the Google Drive REST wire format (v3) for the parts the adapter uses: about.get,
 * files.list with `q` (the subset `'<id>' in parents`, `name = '…'`, `mimeType = '…'`, `trashed = false`,
 * `appProperties has { key='k' and value='v' }`, joined by `and`; anything else is a 400 like Drive's "Invalid
 * Value"), `fields` projections, pageSize/pageToken; files.create of metadata (folders), files.get, files.update
 * (name, trashed), files.delete; uploads with uploadType=multipart (multipart/related) and uploadType=resumable
 * (POST → Location session URL, PUT chunks with Content-Range, 308 + Range until complete, `bytes *\/N` status
 * queries). Errors as Google sends them: `{ error: { code, message, status, errors: [{ reason }] } }`.
 * `failNext(count, status, reason, match?)` makes the next requests (whose "METHOD /path?query" contains `match`)
 * fail. Bearer tokens outside `tokens` get 401.
 */
export interface FakeDriveFile {
  id: string;
  name: string;
  mimeType: string;
  parents: string[];
  appProperties: Record<string, string>;
  content: Buffer;
  createdTime: string;
  trashed: boolean;
}

export interface FakeGoogleDrive {
  rootUrl: string;
  /** The id My Drive's root has ('root' is its alias in requests). */
  rootId: string;
  /** Every file and folder, live. */
  files: FakeDriveFile[];
  /** Folder names from the root to the file's parent, then its name; null when it is not under the root. */
  pathOf(file: FakeDriveFile): string[] | null;
  /** Files (not folders, not trashed) whose path is folder + name. */
  filesIn(folder: string[]): FakeDriveFile[];
  /** A file put there by someone else (no appProperties unless given). */
  addFile(file: { name: string; content: Buffer; parents?: string[]; mimeType?: string }): FakeDriveFile;
  failNext(count: number, status: number, reason: string, match?: string): void;
  /** Valid bearer tokens; others get 401. */
  tokens: Set<string>;
  /** "METHOD /path?query" of every request, in order. */
  requests: string[];
  close(): Promise<void>;
}

const FOLDER_MIME = 'application/vnd.google-apps.folder';

interface Session {
  metadata: Record<string, unknown>;
  fields: string | null;
  total: number;
  parts: Buffer[];
  received: number;
  file: FakeDriveFile | null;
}

class HttpError extends Error {
  constructor(
    readonly code: number,
    message: string,
    readonly reason: string,
  ) {
    super(message);
  }
}

export async function startFakeGoogleDrive(): Promise<FakeGoogleDrive> {
  const rootId = `0A${randomBytes(6).toString('hex')}`;
  const files: FakeDriveFile[] = [];
  const sessions = new Map<string, Session>();
  const failures: Array<{ status: number; reason: string; match: string | undefined }> = [];
  const tokens = new Set<string>(['valid-token']);
  const requests: string[] = [];
  let lastCreated = 0;
  let rootUrl = '';

  const byId = (id: string) => files.find((f) => f.id === (id === 'root' ? rootId : id));

  function create(meta: Record<string, unknown>, content: Buffer): FakeDriveFile {
    const name = meta.name;
    if (typeof name !== 'string' || !name) throw new HttpError(400, 'A file needs a name', 'required');
    const parents = Array.isArray(meta.parents) && meta.parents.length > 0 ? meta.parents.map(String) : [rootId];
    for (const p of parents) {
      const parent = p === 'root' ? undefined : byId(p);
      if (p !== 'root' && p !== rootId && (!parent || parent.mimeType !== FOLDER_MIME)) {
        throw new HttpError(404, `File not found: ${p}.`, 'notFound');
      }
    }
    // Strictly increasing creation times, as Drive's are in practice: "oldest" is well defined in tests.
    lastCreated = Math.max(Date.now(), lastCreated + 1);
    const file: FakeDriveFile = {
      id: randomBytes(12).toString('base64url'),
      name,
      mimeType: typeof meta.mimeType === 'string' ? meta.mimeType : 'application/octet-stream',
      parents: parents.map((p) => (p === 'root' ? rootId : p)),
      appProperties: { ...((meta.appProperties as Record<string, string> | undefined) ?? {}) },
      content,
      createdTime: new Date(lastCreated).toISOString(),
      trashed: false,
    };
    files.push(file);
    return file;
  }

  function resource(file: FakeDriveFile): Record<string, unknown> {
    const isFolder = file.mimeType === FOLDER_MIME;
    return {
      kind: 'drive#file',
      id: file.id,
      name: file.name,
      mimeType: file.mimeType,
      parents: file.parents,
      trashed: file.trashed,
      createdTime: file.createdTime,
      appProperties: file.appProperties,
      webViewLink: isFolder
        ? `https://drive.google.com/drive/folders/${file.id}`
        : `https://drive.google.com/file/d/${file.id}/view?usp=drivesdk`,
      ...(isFolder
        ? {}
        : {
            size: String(file.content.length),
            md5Checksum: createHash('md5').update(file.content).digest('hex'),
          }),
    };
  }

  function pathOf(file: FakeDriveFile): string[] | null {
    const names = [file.name];
    let current = file;
    for (let depth = 0; depth < 50; depth++) {
      const parentId = current.parents[0];
      if (parentId === rootId) return names;
      const parent = parentId ? byId(parentId) : undefined;
      if (!parent) return null;
      names.unshift(parent.name);
      current = parent;
    }
    return null;
  }

  const send = (res: http.ServerResponse, status: number, body: unknown, headers: Record<string, string> = {}) => {
    res.writeHead(status, { 'content-type': 'application/json; charset=UTF-8', ...headers });
    res.end(body === undefined ? '' : JSON.stringify(body));
  };
  const fail = (res: http.ServerResponse, code: number, message: string, reason: string) =>
    send(res, code, {
      error: {
        code,
        message,
        status:
          code === 401 ? 'UNAUTHENTICATED' : code === 404 ? 'NOT_FOUND' : code === 429 ? 'RESOURCE_EXHAUSTED' : 'ERROR',
        errors: [{ domain: 'global', reason, message }],
      },
    });

  async function handle(req: http.IncomingMessage, res: http.ServerResponse, body: Buffer) {
    const url = new URL(req.url!, 'http://x');
    const line = `${req.method} ${url.pathname}${url.search}`;
    requests.push(line);
    const token = (req.headers.authorization ?? '').replace(/^Bearer /, '');
    if (!tokens.has(token)) return fail(res, 401, 'Request had invalid authentication credentials.', 'authError');
    const failureAt = failures.findIndex((f) => f.match === undefined || line.includes(f.match));
    if (failureAt >= 0) {
      const [failure] = failures.splice(failureAt, 1);
      return fail(res, failure!.status, 'Failing on purpose', failure!.reason);
    }
    const fields = url.searchParams.get('fields');
    const p = url.pathname;

    if (p === '/drive/v3/about' && req.method === 'GET') {
      return send(
        res,
        200,
        project({ kind: 'drive#about', user: { emailAddress: 'me@gmail.test', displayName: 'Me' } }, fields),
      );
    }
    if (p === '/drive/v3/files' && req.method === 'GET') {
      const match = parseQuery(url.searchParams.get('q') ?? '', rootId);
      const all = files.filter((f) => match(f));
      const pageSize = Math.min(Number(url.searchParams.get('pageSize') ?? 100), 1000);
      const start = Number(url.searchParams.get('pageToken') ?? 0);
      const page = all.slice(start, start + pageSize);
      const listFields = parseFields(fields);
      const fileFields = listFields
        ? listFields.get('files')
        : new Map([
            ['kind', null],
            ['id', null],
            ['name', null],
            ['mimeType', null],
          ]);
      if (listFields && !listFields.has('files'))
        throw new HttpError(400, 'Invalid field selection', 'invalidParameter');
      return send(res, 200, {
        kind: 'drive#fileList',
        ...(start + pageSize < all.length && (!listFields || listFields.has('nextPageToken'))
          ? { nextPageToken: String(start + pageSize) }
          : {}),
        files: page.map((f) => pick(resource(f), fileFields ?? null)),
      });
    }
    if (p === '/drive/v3/files' && req.method === 'POST') {
      const file = create(JSON.parse(body.toString('utf8') || '{}'), Buffer.alloc(0));
      return send(res, 200, project(resource(file), fields));
    }
    const one = /^\/drive\/v3\/files\/([^/]+)$/.exec(p);
    if (one) {
      const file = byId(decodeURIComponent(one[1]!));
      if (!file) throw new HttpError(404, `File not found: ${one[1]}.`, 'notFound');
      if (req.method === 'GET') {
        if (url.searchParams.get('alt') === 'media') {
          res.writeHead(200, { 'content-type': file.mimeType });
          return res.end(file.content);
        }
        return send(res, 200, project(resource(file), fields));
      }
      if (req.method === 'PATCH') {
        const patch = JSON.parse(body.toString('utf8') || '{}') as Partial<FakeDriveFile>;
        if (typeof patch.name === 'string') file.name = patch.name;
        if (typeof patch.trashed === 'boolean') file.trashed = patch.trashed;
        if (patch.appProperties) Object.assign(file.appProperties, patch.appProperties);
        return send(res, 200, project(resource(file), fields));
      }
      if (req.method === 'DELETE') {
        // Deleting a folder deletes what is in it.
        const doomed = new Set([file.id]);
        for (let grew = true; grew; ) {
          grew = false;
          for (const f of files) {
            if (!doomed.has(f.id) && f.parents.some((x) => doomed.has(x))) {
              doomed.add(f.id);
              grew = true;
            }
          }
        }
        for (let i = files.length - 1; i >= 0; i--) if (doomed.has(files[i]!.id)) files.splice(i, 1);
        res.writeHead(204);
        return res.end();
      }
    }
    if (p === '/upload/drive/v3/files') {
      const type = url.searchParams.get('uploadType');
      if (req.method === 'POST' && type === 'multipart') {
        const { metadata, content } = parseMultipart(req.headers['content-type'] ?? '', body);
        return send(res, 200, project(resource(create(metadata, content)), fields));
      }
      if (req.method === 'POST' && type === 'resumable') {
        const metadata = JSON.parse(body.toString('utf8') || '{}') as Record<string, unknown>;
        const total = Number(req.headers['x-upload-content-length']);
        if (!Number.isInteger(total) || total < 0) throw new HttpError(400, 'X-Upload-Content-Length', 'badRequest');
        const id = randomBytes(12).toString('hex');
        sessions.set(id, { metadata, fields, total, parts: [], received: 0, file: null });
        res.writeHead(200, { location: `${rootUrl}upload/drive/v3/files?uploadType=resumable&upload_id=${id}` });
        return res.end();
      }
      if (req.method === 'PUT' && type === 'resumable') {
        const session = sessions.get(url.searchParams.get('upload_id') ?? '');
        if (!session) throw new HttpError(404, 'No such upload session', 'notFound');
        const done = () => send(res, 200, project(resource(session.file!), session.fields));
        const incomplete = () => {
          res.writeHead(308, session.received > 0 ? { range: `bytes=0-${session.received - 1}` } : {});
          res.end();
        };
        const range = req.headers['content-range'] ?? '';
        if (/^bytes \*\/\d+$/.test(range)) return session.file ? done() : incomplete();
        const m = /^bytes (\d+)-(\d+)\/(\d+|\*)$/.exec(range);
        if (!m) throw new HttpError(400, `Bad Content-Range: ${range}`, 'badContentRange');
        const [from, to] = [Number(m[1]), Number(m[2])];
        if (session.file) return done();
        if (from !== session.received || to - from + 1 !== body.length || to >= session.total) {
          throw new HttpError(
            400,
            `Content-Range ${range} does not continue at ${session.received}`,
            'badContentRange',
          );
        }
        if (to + 1 < session.total && body.length % (256 * 1024) !== 0) {
          throw new HttpError(400, 'Chunks must be multiples of 256 KiB', 'badContentRange');
        }
        session.parts.push(body);
        session.received += body.length;
        if (session.received < session.total) return incomplete();
        session.file = create(session.metadata, Buffer.concat(session.parts));
        return done();
      }
      throw new HttpError(400, `uploadType ${type} is not supported here`, 'badRequest');
    }
    throw new HttpError(404, `Not found: ${p}`, 'notFound');
  }

  const server = http.createServer((req, res) => {
    const chunks: Buffer[] = [];
    req.on('data', (c: Buffer) => chunks.push(c));
    req.on('end', () => {
      handle(req, res, Buffer.concat(chunks)).catch((error: unknown) => {
        if (error instanceof HttpError) return fail(res, error.code, error.message, error.reason);
        fail(res, 500, String(error), 'backendError');
      });
    });
  });
  await new Promise<void>((r) => server.listen(0, '127.0.0.1', r));
  rootUrl = `http://127.0.0.1:${(server.address() as AddressInfo).port}/`;

  return {
    rootUrl,
    rootId,
    files,
    pathOf,
    filesIn(folder) {
      return files.filter((f) => {
        if (f.mimeType === FOLDER_MIME || f.trashed) return false;
        const path = pathOf(f);
        return path !== null && path.length === folder.length + 1 && folder.every((s, i) => path[i] === s);
      });
    },
    addFile(file) {
      return create(
        { name: file.name, parents: file.parents, mimeType: file.mimeType ?? 'application/pdf' },
        file.content,
      );
    },
    failNext(count, status, reason, match) {
      for (let i = 0; i < count; i++) failures.push({ status, reason, match });
    },
    tokens,
    requests,
    close: () =>
      new Promise((r) => {
        server.closeAllConnections();
        server.close(() => r());
      }),
  };
}

// ---- q: the subset of Drive's query language the adapter uses ----

function parseQuery(q: string, rootId: string): (f: FakeDriveFile) => boolean {
  const terms = splitAnd(q.trim()).map((term) => parseTerm(term, rootId));
  return (f) => terms.every((t) => t(f));
}

/** Splits on ` and ` outside quotes and braces. */
function splitAnd(q: string): string[] {
  if (!q) return [];
  const out: string[] = [];
  let depth = 0;
  let quoted = false;
  let start = 0;
  for (let i = 0; i < q.length; i++) {
    const c = q[i];
    if (quoted) {
      if (c === '\\') i++;
      else if (c === "'") quoted = false;
      continue;
    }
    if (c === "'") quoted = true;
    else if (c === '{') depth++;
    else if (c === '}') depth--;
    else if (depth === 0 && q.startsWith(' and ', i)) {
      out.push(q.slice(start, i).trim());
      start = i + 5;
      i += 4;
    }
  }
  out.push(q.slice(start).trim());
  return out;
}

const STRING = String.raw`'((?:[^'\\]|\\.)*)'`;
const unquote = (s: string) => s.replace(/\\(.)/g, '$1');

function parseTerm(term: string, rootId: string): (f: FakeDriveFile) => boolean {
  let m = new RegExp(`^${STRING}\\s+in\\s+parents$`).exec(term);
  if (m) {
    const id = unquote(m[1]!) === 'root' ? rootId : unquote(m[1]!);
    return (f) => f.parents.includes(id);
  }
  m = new RegExp(`^(name|mimeType)\\s*(=|!=)\\s*${STRING}$`).exec(term);
  if (m) {
    const [key, op, value] = [m[1] as 'name' | 'mimeType', m[2], unquote(m[3]!)];
    return (f) => (f[key] === value) === (op === '=');
  }
  m = /^trashed\s*=\s*(true|false)$/.exec(term);
  if (m) {
    const trashed = m[1] === 'true';
    return (f) => f.trashed === trashed;
  }
  m = new RegExp(
    `^appProperties\\s+has\\s*\\{\\s*key\\s*=\\s*${STRING}\\s+and\\s+value\\s*=\\s*${STRING}\\s*\\}$`,
  ).exec(term);
  if (m) {
    const [key, value] = [unquote(m[1]!), unquote(m[2]!)];
    return (f) => f.appProperties[key] === value;
  }
  throw new HttpError(400, `Invalid Value: unsupported query term "${term}"`, 'invalid');
}

// ---- fields: "id,name", "files(id,name),nextPageToken", "user(emailAddress)" ----

type FieldTree = Map<string, FieldTree | null>;

function parseFields(fields: string | null): FieldTree | null {
  if (!fields || fields === '*') return null;
  let i = 0;
  const parse = (): FieldTree => {
    const tree: FieldTree = new Map();
    let name = '';
    while (i < fields.length) {
      const c = fields[i++]!;
      if (c === '(') {
        tree.set(name.trim(), parse());
        name = '';
      } else if (c === ')') {
        break;
      } else if (c === ',') {
        if (name.trim()) tree.set(name.trim(), null);
        name = '';
      } else {
        name += c;
      }
    }
    if (name.trim()) tree.set(name.trim(), null);
    return tree;
  };
  return parse();
}

function pick(value: Record<string, unknown>, tree: FieldTree | null): Record<string, unknown> {
  if (!tree || tree.has('*')) return value;
  const out: Record<string, unknown> = {};
  for (const [key, sub] of tree) {
    if (!(key in value)) continue;
    const v = value[key];
    out[key] = sub && v && typeof v === 'object' ? pick(v as Record<string, unknown>, sub) : v;
  }
  return out;
}

/** Drive's default without `fields`: kind, id, name, mimeType. */
function project(value: Record<string, unknown>, fields: string | null): Record<string, unknown> {
  const tree = parseFields(fields);
  if (tree) return pick(value, tree);
  const { kind, id, name, mimeType, user } = value as Record<string, unknown>;
  return user ? { kind, user } : { kind, id, name, mimeType };
}

function parseMultipart(contentType: string, body: Buffer): { metadata: Record<string, unknown>; content: Buffer } {
  const boundary = /boundary=("?)([^";]+)\1/.exec(contentType)?.[2];
  if (!/^multipart\/related/i.test(contentType) || !boundary) {
    throw new HttpError(400, 'Expected multipart/related', 'badRequest');
  }
  const delimiter = Buffer.from(`--${boundary}`);
  const parts: Buffer[] = [];
  let at = body.indexOf(delimiter);
  while (at >= 0) {
    const start = at + delimiter.length;
    if (body.subarray(start, start + 2).toString() === '--') break;
    const next = body.indexOf(delimiter, start);
    if (next < 0) break;
    // Each part: CRLF, headers, CRLF CRLF, body, CRLF before the next delimiter.
    parts.push(body.subarray(start + 2, next - 2));
    at = next;
  }
  const [meta, media] = parts.map((part) => {
    const split = part.indexOf('\r\n\r\n');
    return split < 0 ? Buffer.alloc(0) : part.subarray(split + 4);
  });
  if (!meta || !media) throw new HttpError(400, 'Expected two parts', 'badRequest');
  return { metadata: JSON.parse(meta.toString('utf8')), content: Buffer.from(media) };
}
