import { type UploadFileResult, UploadResponseSchema } from '@invoicebox/core';
import { useQueryClient } from '@tanstack/react-query';
import { Camera, FileUp } from 'lucide-react';
import { type DragEvent, useId, useRef, useState } from 'react';
import { Button } from '../../components/ui/button';
import { Card, CardContent, CardDescription, CardHeader, CardTitle } from '../../components/ui/card';
import { ApiError, apiUpload } from '../../lib/api-client';
import { useAccounts } from '../accounts/api/accounts-api';

/** What the file pickers offer: documents, photos, e-invoice XML and saved mails. */
export const UPLOAD_ACCEPT =
  'image/*,application/pdf,.pdf,.xml,application/xml,text/xml,.eml,message/rfc822,.heic,.heif';
/** Files sent at once: each its own request, so each has its own progress line and result. */
const PARALLEL = 2;

interface Line {
  key: string;
  name: string;
  state: 'waiting' | 'uploading' | 'done';
  result?: UploadFileResult;
  error?: string;
}

const LABEL: Record<UploadFileResult['status'], string> = {
  added: 'Added',
  duplicate: 'Already there',
  unreadable: 'Added, not readable',
  not_invoice: 'Not an invoice',
  failed: 'Refused',
};

/**
 * Invoice Analysis's upload card: a drop zone and a button for documents (PDF, photos, e-invoice XML, .eml) and, on
 * a phone, a button that opens the camera. Each file gets a line with its progress and its own result or error.
 */
export function UploadDropZone() {
  const client = useQueryClient();
  const [lines, setLines] = useState<Line[]>([]);
  const [over, setOver] = useState(false);
  const files = useRef<HTMLInputElement>(null);
  const camera = useRef<HTMLInputElement>(null);
  const ids = { title: useId(), help: useId(), files: useId(), camera: useId() };
  const busy = lines.some((l) => l.state !== 'done');
  // Added documents belong to the Uploads source: say so when the account scope does not show it.
  const session = useAccounts().data?.session;
  const uploadsSource = session?.connectedAccounts.find((a) => a.provider === 'upload');
  const uploadsShown =
    !uploadsSource ||
    session?.selectedScope === 'all' ||
    (session?.selectedScope === 'custom' && session.selectedUserIds.includes(uploadsSource.userId)) ||
    (session?.selectedScope === 'current' && session.activeUserId === uploadsSource.userId);
  const added = lines.some((l) => l.result && l.result.status !== 'failed');

  const update = (key: string, patch: Partial<Line>) =>
    setLines((all) => all.map((l) => (l.key === key ? { ...l, ...patch } : l)));

  const add = async (list: FileList | File[] | null) => {
    const picked = [...(list ?? [])];
    if (picked.length === 0) return;
    const queued = picked.map((file, i) => ({
      file,
      line: { key: `${Date.now()}-${i}-${file.name}`, name: file.name, state: 'waiting' as const },
    }));
    // Newest first; the lines of earlier picks stay (up to 30) so their results remain readable.
    setLines((all) => [...queued.map((q) => q.line), ...all].slice(0, Math.max(30, queued.length)));
    let next = 0;
    const lane = async () => {
      while (next < queued.length) {
        const { file, line } = queued[next++]!;
        update(line.key, { state: 'uploading' });
        const form = new FormData();
        form.append('files', file, file.name);
        try {
          const response = await apiUpload('/invoices/upload', form, { schema: UploadResponseSchema });
          update(line.key, { state: 'done', result: response.files[0] });
        } catch (error) {
          update(line.key, {
            state: 'done',
            error: error instanceof ApiError ? error.message : 'The upload failed; try again',
          });
        }
      }
    };
    await Promise.all(Array.from({ length: Math.min(PARALLEL, queued.length) }, lane));
    await Promise.all([
      client.invalidateQueries({ queryKey: ['invoices'] }),
      client.invalidateQueries({ queryKey: ['accounts'] }),
      client.invalidateQueries({ queryKey: ['jobs'] }),
    ]);
  };

  const onDrop = (event: DragEvent<HTMLDivElement>) => {
    event.preventDefault();
    setOver(false);
    void add(event.dataTransfer.files);
  };

  return (
    <Card className="mt-6" role="region" aria-labelledby={ids.title}>
      <CardHeader>
        <CardTitle id={ids.title}>Add documents</CardTitle>
        <CardDescription id={ids.help}>
          PDFs, photos (JPEG, PNG, HEIC), e-invoice XML and saved mails (.eml). They are added to your Uploads source,
          once each.
        </CardDescription>
      </CardHeader>
      <CardContent>
        {/* biome-ignore lint/a11y/noStaticElementInteractions: the drop target; the buttons inside are the keyboard way */}
        <div
          data-testid="upload-drop-zone"
          onDragOver={(event) => {
            event.preventDefault();
            setOver(true);
          }}
          onDragLeave={() => setOver(false)}
          onDrop={onDrop}
          className={`flex flex-col items-center gap-3 rounded-lg border-2 border-dashed px-4 py-6 text-center text-sm ${
            over ? 'border-indigo-500 bg-indigo-50' : 'border-slate-300 text-slate-600'
          }`}
        >
          <FileUp className="h-6 w-6 text-indigo-600" aria-hidden="true" />
          <p>Drop files here, or</p>
          <div className="flex flex-wrap justify-center gap-2">
            <Button type="button" onClick={() => files.current?.click()} aria-describedby={ids.help}>
              Choose files
            </Button>
            <Button type="button" variant="outline" className="md:hidden" onClick={() => camera.current?.click()}>
              <Camera className="mr-1 h-4 w-4" aria-hidden="true" />
              Take a photo
            </Button>
          </div>
          {/* The pickers themselves are reached through the buttons above (hidden from the accessibility tree). */}
          <input
            id={ids.files}
            ref={files}
            type="file"
            multiple
            accept={UPLOAD_ACCEPT}
            className="sr-only"
            tabIndex={-1}
            aria-hidden="true"
            data-testid="upload-input"
            onChange={(event) => {
              void add(event.currentTarget.files);
              event.currentTarget.value = '';
            }}
          />
          <input
            id={ids.camera}
            ref={camera}
            type="file"
            accept="image/*"
            capture="environment"
            className="sr-only"
            tabIndex={-1}
            aria-hidden="true"
            data-testid="upload-camera"
            onChange={(event) => {
              void add(event.currentTarget.files);
              event.currentTarget.value = '';
            }}
          />
        </div>
        {added && !uploadsShown && (
          <p className="mt-3 text-sm text-slate-600">
            Added documents are in your <strong>Uploads</strong> source: choose it, or all accounts, in the account
            scope to see them in the list below.
          </p>
        )}
        {lines.length > 0 && (
          <ul aria-label="Added files" aria-live="polite" aria-busy={busy} className="mt-4 space-y-2 text-sm">
            {lines.map((line) => (
              <UploadLine key={line.key} line={line} />
            ))}
          </ul>
        )}
      </CardContent>
    </Card>
  );
}

function UploadLine({ line }: { line: Line }) {
  const failed = line.error !== undefined || line.result?.status === 'failed' || line.result?.status === 'unreadable';
  const status =
    line.state === 'waiting'
      ? 'Waiting'
      : line.state === 'uploading'
        ? 'Uploading and reading…'
        : line.error !== undefined
          ? 'Failed'
          : LABEL[line.result!.status];
  const detail =
    line.error ??
    (line.result && line.result.status !== 'added' && line.result.status !== 'duplicate'
      ? line.result.message
      : undefined);
  return (
    <li
      className={`flex flex-col gap-0.5 rounded-md border px-3 py-2 sm:flex-row sm:items-baseline sm:gap-3 ${
        failed ? 'border-red-200 bg-red-50' : 'border-slate-200'
      }`}
      data-status={line.error !== undefined ? 'error' : (line.result?.status ?? line.state)}
    >
      <span className="min-w-0 truncate font-medium" title={line.name}>
        {line.name}
      </span>
      <span className={failed ? 'text-red-700' : 'text-slate-600'}>
        {status}
        {detail ? `: ${detail}` : ''}
      </span>
    </li>
  );
}
