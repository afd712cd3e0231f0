import { randomUUID } from 'node:crypto';

/** A multipart/form-data body of file parts, for `app.inject` (and the bench). */
export function multipartBody(files: Array<{ name: string; content: Buffer; type?: string; field?: string }>): {
  payload: Buffer;
  headers: Record<string, string>;
} {
  const boundary = `----invoicebox-${randomUUID()}`;
  const parts: Buffer[] = [];
  for (const file of files) {
    parts.push(
      Buffer.from(
        `--${boundary}\r\nContent-Disposition: form-data; name="${file.field ?? 'files'}"; filename="${file.name.replace(/"/g, '%22')}"\r\n` +
          `Content-Type: ${file.type ?? 'application/octet-stream'}\r\n\r\n`,
      ),
      file.content,
      Buffer.from('\r\n'),
    );
  }
  parts.push(Buffer.from(`--${boundary}--\r\n`));
  return {
    payload: Buffer.concat(parts),
    headers: { 'content-type': `multipart/form-data; boundary=${boundary}` },
  };
}
