import { formatFileSize } from '@invoicebox/core';
import { useQueryClient } from '@tanstack/react-query';
import { Upload } from 'lucide-react';
import { type FormEvent, useId, useRef, useState } from 'react';
import { toast } from 'sonner';
import { Button } from '../../components/ui/button';
import { Card, CardContent, CardDescription, CardHeader, CardTitle } from '../../components/ui/card';
import { uploadMailFile } from '../../features/drive/api/drive-api';
import { setActiveJobId } from '../../features/jobs/active-job-store';

/**
 * Settings → Import mail: a Google Takeout .zip, an mbox file (Takeout's "Mail" export, Thunderbird) or one .eml file, read on the
 * server as a job like a mailbox sync; importing the same file again adds nothing twice.
 */
export function MailImportCard() {
  const client = useQueryClient();
  const ids = { file: useId(), account: useId() };
  const fileInput = useRef<HTMLInputElement>(null);
  const [file, setFile] = useState<File | null>(null);
  const [account, setAccount] = useState('');
  const [busy, setBusy] = useState(false);

  const submit = async (event: FormEvent) => {
    event.preventDefault();
    if (!file) return;
    setBusy(true);
    try {
      const { job_id } = await uploadMailFile(file, account.trim() || undefined);
      setActiveJobId(job_id);
      toast.success(`Importing ${file.name}`);
      setFile(null);
      if (fileInput.current) fileInput.current.value = '';
      await client.invalidateQueries({ queryKey: ['jobs'] });
      await client.invalidateQueries({ queryKey: ['accounts'] });
    } catch (e) {
      toast.error(e instanceof Error ? e.message : 'Upload failed');
    } finally {
      setBusy(false);
    }
  };

  return (
    <Card>
      <CardHeader>
        <CardTitle className="flex items-center gap-2">
          <Upload className="h-5 w-5 text-indigo-600" aria-hidden="true" />
          Import mail
        </CardTitle>
        <CardDescription>
          No account to connect? Upload a Google Takeout .zip (or the .mbox inside it), a Thunderbird mbox or an .eml
          file.
        </CardDescription>
      </CardHeader>
      <CardContent>
        <form className="space-y-3" onSubmit={(e) => void submit(e)}>
          <div>
            <label htmlFor={ids.file} className="text-sm font-medium text-slate-700">
              Mail file
            </label>
            <input
              id={ids.file}
              ref={fileInput}
              type="file"
              accept=".mbox,.mbx,.eml,.zip,application/mbox,message/rfc822,application/zip"
              className="mt-1 block w-full text-sm text-slate-700"
              onChange={(e) => setFile(e.target.files?.[0] ?? null)}
            />
            {file ? (
              <p className="mt-1 text-sm text-slate-500">
                {file.name} · {formatFileSize(file.size)}
              </p>
            ) : null}
          </div>
          <div>
            <label htmlFor={ids.account} className="text-sm font-medium text-slate-700">
              Mailbox address (optional)
            </label>
            <input
              id={ids.account}
              type="email"
              className="mt-1 block w-full rounded-lg border border-slate-300 px-3 py-2 text-sm shadow-sm focus:outline-2 focus:outline-indigo-500"
              placeholder="The address this mail was sent to; default: yours"
              value={account}
              onChange={(e) => setAccount(e.target.value)}
            />
          </div>
          <Button type="submit" size="sm" disabled={!file || busy}>
            {busy ? 'Uploading…' : 'Upload and import'}
          </Button>
        </form>
      </CardContent>
    </Card>
  );
}
