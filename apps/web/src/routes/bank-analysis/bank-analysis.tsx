import type { BankStatement, BankTransaction } from '@invoicebox/core';
import { useQuery, useQueryClient } from '@tanstack/react-query';
import { AlertCircle, FileSpreadsheet, FileText, RotateCcw, Upload } from 'lucide-react';
import { type ChangeEvent, useEffect, useId, useRef, useState } from 'react';
import { useSearchParams } from 'react-router';
import { toast } from 'sonner';
import { PageHeader } from '../../components/page-header';
import { Button } from '../../components/ui/button';
import { Card, CardContent, CardDescription, CardHeader, CardTitle } from '../../components/ui/card';
import { Spinner } from '../../components/ui/spinner';
import { useAccounts } from '../../features/accounts/api/accounts-api';
import {
  bankAnalysisQueryKey,
  bankQueryKey,
  getBankAnalysis,
  invalidatePaidInvoices,
  retryBankStatement,
  selectedAccountIds,
  uploadBankStatement,
  useBankAnalysis,
  useManualMatch,
  useNewestBankStatement,
} from '../../features/bank/api/bank-api';
import { MatchDialog } from '../../features/bank/components/match-dialog';
import { StatementOverview } from '../../features/bank/components/statement-overview';
import { TransactionsTable } from '../../features/bank/components/transactions-table';
import { STRUCTURED_ACCEPT, STRUCTURED_NAME, sizeInMb } from '../../features/bank/format';
import { jobQueryOptions } from '../../features/jobs/api/get-job';
import { ApiError } from '../../lib/api-client';
import { JOB_POLL_INTERVAL_MS } from '../../lib/constants';

/** Spec §4 bank upload flow; `opening` reads a statement named in the address (?statement=<id>). */
type Flow =
  | { step: 'upload' }
  | { step: 'opening'; statementId: string }
  | { step: 'uploading'; filename: string }
  | { step: 'processing'; statementId: string; jobId: string | null; filename: string }
  | { step: 'completed'; statementId: string }
  | { step: 'error'; message: string; statementId: string | null };

export const NOT_A_PDF = 'Please select a PDF file.';
const NOT_AN_EXPORT = 'Please select a CSV, OFX, camt.053 XML or MT940 file.';
const UPLOAD_FAILED = 'Failed to upload bank statement';
const ANALYSIS_FAILED = 'Bank statement analysis failed. Please try uploading again.';
const ANALYSIS_ERROR = 'There was an error analyzing your bank statement. Please try again.';
const ANALYSED = 'Your bank statement has been successfully analyzed.';

/** The server's message when it sent one; otherwise the spec's generic upload toast. */
function uploadMessage(error: unknown): string {
  if (error instanceof ApiError && error.status > 0 && !/^HTTP \d+$/.test(error.message)) return error.message;
  return UPLOAD_FAILED;
}

export function BankAnalysisRoute() {
  const client = useQueryClient();
  const [params, setParams] = useSearchParams();
  const requested = params.get('statement');
  const [flow, setFlow] = useState<Flow>(requested ? { step: 'opening', statementId: requested } : { step: 'upload' });
  const accounts = useAccounts();

  // A row of History or the dashboard opens its statement here.
  useEffect(() => {
    if (requested)
      setFlow((f) =>
        'statementId' in f && f.statementId === requested ? f : { step: 'opening', statementId: requested },
      );
  }, [requested]);

  const opening = useBankAnalysis(flow.step === 'opening' ? flow.statementId : null);
  useEffect(() => {
    if (flow.step !== 'opening') return;
    const s = opening.data;
    if (opening.error) setFlow({ step: 'error', message: opening.error.message, statementId: null });
    if (!s || s.id !== flow.statementId) return;
    if (s.status === 'processed') setFlow({ step: 'completed', statementId: s.id });
    else if (s.status === 'pending')
      setFlow({ step: 'processing', statementId: s.id, jobId: s.job_id, filename: s.filename });
    else setFlow({ step: 'error', message: s.error || ANALYSIS_FAILED, statementId: s.id });
  }, [flow, opening.data, opening.error]);

  const startUpload = async (file: File) => {
    setFlow({ step: 'uploading', filename: file.name });
    try {
      const answer = await uploadBankStatement(file, selectedAccountIds(accounts.data?.session));
      setParams({}, { replace: true });
      setFlow({ step: 'processing', statementId: answer.bank_statement_id, jobId: answer.job_id, filename: file.name });
      void client.invalidateQueries({ queryKey: bankQueryKey });
      void client.invalidateQueries({ queryKey: ['jobs'] });
    } catch (error) {
      const message = uploadMessage(error);
      toast.error(message);
      setFlow({ step: 'error', message, statementId: null });
    }
  };

  const retry = async (statementId: string) => {
    try {
      const answer = await retryBankStatement(statementId);
      const filename = client.getQueryData<BankStatement>(bankAnalysisQueryKey(statementId))?.filename ?? '';
      setFlow({ step: 'processing', statementId, jobId: answer.job_id, filename });
      void client.invalidateQueries({ queryKey: bankQueryKey });
    } catch (error) {
      toast.error(error instanceof Error ? error.message : ANALYSIS_ERROR);
    }
  };

  const reset = () => {
    setParams({}, { replace: true });
    setFlow({ step: 'upload' });
  };

  return (
    <>
      <PageHeader
        title="Bank Statement Analysis"
        description="Upload a bank statement and match its transactions to your invoices."
      />
      {flow.step === 'upload' ? <UploadStep onUpload={(file) => void startUpload(file)} /> : null}
      {flow.step === 'opening' ? <Spinner label="Loading statement…" /> : null}
      {flow.step === 'uploading' ? (
        <Card>
          <CardContent className="pt-5">
            <Spinner label={`Uploading ${flow.filename}…`} />
          </CardContent>
        </Card>
      ) : null}
      {flow.step === 'processing' ? (
        <ProcessingStep
          key={`${flow.statementId}-${flow.jobId ?? ''}`}
          statementId={flow.statementId}
          jobId={flow.jobId}
          filename={flow.filename}
          onDone={setFlow}
        />
      ) : null}
      {flow.step === 'completed' ? <CompletedStep statementId={flow.statementId} onNew={reset} /> : null}
      {flow.step === 'error' ? (
        <Card>
          <CardHeader>
            <CardTitle className="flex items-center gap-2 text-red-700">
              <AlertCircle className="h-5 w-5" aria-hidden="true" />
              Analysis failed
            </CardTitle>
          </CardHeader>
          <CardContent className="space-y-4">
            <p role="alert" className="text-sm text-red-700">
              {flow.message}
            </p>
            <div className="flex flex-wrap gap-2">
              {flow.statementId ? (
                <Button variant="outline" onClick={() => void retry(flow.statementId as string)}>
                  <RotateCcw className="h-4 w-4" aria-hidden="true" />
                  Retry Analysis
                </Button>
              ) : null}
              <Button onClick={reset}>
                <Upload className="h-4 w-4" aria-hidden="true" />
                Choose Another File
              </Button>
            </div>
          </CardContent>
        </Card>
      ) : null}
    </>
  );
}

/** One PDF (spec §5) for the vision analysis, and apart from it a structured export through the same call. */
function UploadStep({ onUpload }: { onUpload: (file: File) => void }) {
  const ids = { pdf: useId(), pdfError: useId(), export: useId(), exportError: useId() };
  const [pdf, setPdf] = useState<File | null>(null);
  const [pdfError, setPdfError] = useState<string | null>(null);
  const [exportFile, setExportFile] = useState<File | null>(null);
  const [exportError, setExportError] = useState<string | null>(null);
  const pdfInput = useRef<HTMLInputElement>(null);

  const pickPdf = (event: ChangeEvent<HTMLInputElement>) => {
    const file = event.target.files?.[0] ?? null;
    if (file && file.type !== 'application/pdf') {
      toast.error(NOT_A_PDF);
      setPdfError(NOT_A_PDF);
      setPdf(null);
      event.target.value = '';
      return;
    }
    setPdfError(null);
    setPdf(file);
  };
  const pickExport = (event: ChangeEvent<HTMLInputElement>) => {
    const file = event.target.files?.[0] ?? null;
    if (file && !STRUCTURED_NAME.test(file.name)) {
      setExportError(NOT_AN_EXPORT);
      setExportFile(null);
      event.target.value = '';
      return;
    }
    setExportError(null);
    setExportFile(file);
  };

  return (
    <div className="grid gap-6 lg:grid-cols-[3fr_2fr]">
      <Card>
        <CardHeader>
          <CardTitle className="flex items-center gap-2">
            <FileText className="h-5 w-5 text-indigo-600" aria-hidden="true" />
            Upload Bank Statement
          </CardTitle>
          <CardDescription>One PDF statement, text or scanned. Its transactions are read and matched.</CardDescription>
        </CardHeader>
        <CardContent className="space-y-4">
          <label
            htmlFor={ids.pdf}
            className="flex cursor-pointer flex-col items-center gap-2 rounded-lg border-2 border-dashed border-slate-300 px-6 py-8 text-center hover:border-indigo-400"
          >
            <Upload className="h-8 w-8 text-slate-400" aria-hidden="true" />
            <span className="font-medium text-slate-700">Bank statement PDF</span>
            <span className="text-sm text-slate-500">Click to choose a PDF file</span>
          </label>
          <input
            id={ids.pdf}
            ref={pdfInput}
            type="file"
            accept="application/pdf"
            className="sr-only"
            aria-describedby={pdfError ? ids.pdfError : undefined}
            onChange={pickPdf}
          />
          {pdfError ? (
            <p id={ids.pdfError} role="alert" className="text-sm text-red-700">
              {pdfError}
            </p>
          ) : null}
          {pdf ? (
            <div className="flex flex-wrap items-center justify-between gap-3 rounded-lg bg-slate-50 p-3">
              <div className="min-w-0">
                <p className="truncate font-medium text-slate-900">{pdf.name}</p>
                <p className="text-sm text-slate-500">{sizeInMb(pdf.size)}</p>
              </div>
              <Button onClick={() => onUpload(pdf)}>Start Vision Analysis</Button>
            </div>
          ) : null}
        </CardContent>
      </Card>

      <Card className="border-dashed bg-slate-50/60">
        <CardHeader>
          <CardTitle className="flex items-center gap-2">
            <FileSpreadsheet className="h-5 w-5 text-indigo-600" aria-hidden="true" />
            Or upload a bank export
          </CardTitle>
          <CardDescription>
            A structured file from your online banking: CSV, OFX, camt.053 XML or MT940. No PDF needed.
          </CardDescription>
        </CardHeader>
        <CardContent className="space-y-3">
          <label htmlFor={ids.export} className="block text-sm font-medium text-slate-700">
            Statement export file
          </label>
          <input
            id={ids.export}
            type="file"
            accept={STRUCTURED_ACCEPT}
            className="block w-full text-sm text-slate-700"
            aria-describedby={exportError ? ids.exportError : undefined}
            onChange={pickExport}
          />
          {exportError ? (
            <p id={ids.exportError} role="alert" className="text-sm text-red-700">
              {exportError}
            </p>
          ) : null}
          {exportFile ? (
            <p className="text-sm text-slate-500">
              {exportFile.name} · {sizeInMb(exportFile.size)}
            </p>
          ) : null}
          <Button variant="outline" disabled={!exportFile} onClick={() => exportFile && onUpload(exportFile)}>
            Analyze Export
          </Button>
        </CardContent>
      </Card>
    </div>
  );
}

interface ProcessingProps {
  statementId: string;
  jobId: string | null;
  filename: string;
  onDone: (next: Flow) => void;
}

/** Spec §4: polls the newest statement (limit 1) and shows the job's progress until processed or failed. */
function ProcessingStep({ statementId, jobId, filename, onDone }: ProcessingProps) {
  const client = useQueryClient();
  const newest = useNewestBankStatement(true);
  const newestRow = newest.data?.statements[0];
  // A retried older statement is not the newest: it is followed by its own address instead.
  const followById = newest.data !== undefined && newestRow?.id !== statementId;
  const byId = useBankAnalysis(followById ? statementId : null, true);
  const current = followById ? byId.data : newestRow;
  const job = useQuery({
    ...jobQueryOptions(jobId ?? ''),
    enabled: jobId !== null,
    staleTime: 0,
    gcTime: 0,
    refetchInterval: (q) =>
      q.state.data?.status === 'completed' || q.state.data?.status === 'failed' ? false : JOB_POLL_INTERVAL_MS,
    refetchIntervalInBackground: true,
  });
  const done = useRef(false);
  const status = current?.status;
  const pollError = newest.error ?? byId.error;

  useEffect(() => {
    if (done.current) return;
    if (pollError) {
      done.current = true;
      toast.error(ANALYSIS_ERROR);
      onDone({ step: 'error', message: pollError.message || ANALYSIS_ERROR, statementId });
      return;
    }
    if (status === 'processed') {
      done.current = true;
      client
        .fetchQuery({
          queryKey: bankAnalysisQueryKey(statementId),
          queryFn: ({ signal }) => getBankAnalysis(statementId, signal),
          staleTime: 0,
        })
        .then(() => {
          toast.success(ANALYSED);
          void client.invalidateQueries({ queryKey: bankQueryKey, refetchType: 'active' });
          void invalidatePaidInvoices(client);
          onDone({ step: 'completed', statementId });
        })
        .catch(() => {
          toast.error(ANALYSIS_ERROR);
          onDone({ step: 'error', message: ANALYSIS_ERROR, statementId });
        });
    } else if (status !== undefined && status !== 'pending') {
      done.current = true;
      toast.error(ANALYSIS_FAILED);
      void client.invalidateQueries({ queryKey: bankQueryKey, refetchType: 'active' });
      onDone({ step: 'error', message: current?.error || ANALYSIS_FAILED, statementId });
    }
  }, [status, pollError, statementId, client, onDone, current?.error]);

  const progress = job.data?.progress ?? 0;
  return (
    <Card>
      <CardHeader>
        <CardTitle>Analyzing {filename || 'your statement'}</CardTitle>
        <CardDescription>Reading the transactions and matching them to your invoices.</CardDescription>
      </CardHeader>
      <CardContent className="space-y-3">
        <Spinner label={job.data?.message || 'Processing…'} />
        <div
          role="progressbar"
          aria-label="Analysis progress"
          aria-valuemin={0}
          aria-valuemax={100}
          aria-valuenow={progress}
          className="h-2 w-full overflow-hidden rounded-full bg-slate-100"
        >
          <div className="h-full bg-indigo-600 transition-all" style={{ width: `${progress}%` }} />
        </div>
        <p className="text-sm text-slate-500">{progress}% complete</p>
      </CardContent>
    </Card>
  );
}

/** Spec §2 completed: the file name, 'Upload New Statement', the overview, the period and the table. */
function CompletedStep({ statementId, onNew }: { statementId: string; onNew: () => void }) {
  const analysis = useBankAnalysis(statementId);
  const match = useManualMatch(statementId);
  const [matching, setMatching] = useState<BankTransaction | null>(null);
  const statement = analysis.data;
  const busyId = match.isPending ? (match.variables?.transactionId ?? null) : null;
  if (!statement) {
    return analysis.error ? (
      <p role="alert" className="text-sm text-red-700">
        {analysis.error.message}
      </p>
    ) : (
      <Spinner label="Loading statement…" />
    );
  }
  return (
    <div className="space-y-6">
      <Card>
        <CardHeader className="flex-row flex-wrap items-start justify-between gap-4">
          <div className="min-w-0">
            <CardTitle className="flex items-center gap-2">
              <FileText className="h-5 w-5 text-indigo-600" aria-hidden="true" />
              <span className="truncate">{statement.filename}</span>
            </CardTitle>
            <CardDescription>Analysis complete</CardDescription>
          </div>
          <Button variant="outline" onClick={onNew}>
            <Upload className="h-4 w-4" aria-hidden="true" />
            Upload New Statement
          </Button>
        </CardHeader>
        <CardContent>
          <StatementOverview statement={statement} />
        </CardContent>
      </Card>
      <Card>
        <CardHeader>
          <CardTitle>Transactions</CardTitle>
        </CardHeader>
        <CardContent>
          <TransactionsTable
            transactions={statement.transactions}
            busyId={busyId}
            onMatch={setMatching}
            onUnmatch={(t) => match.mutate({ transactionId: t.id, invoiceId: null })}
          />
        </CardContent>
      </Card>
      <MatchDialog
        transaction={matching}
        pending={match.isPending}
        onClose={() => setMatching(null)}
        onPick={(invoiceId) => {
          const t = matching;
          if (!t) return;
          match.mutate({ transactionId: t.id, invoiceId }, { onSuccess: () => setMatching(null) });
        }}
      />
    </div>
  );
}
