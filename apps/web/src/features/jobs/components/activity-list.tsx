import { type Job, jobTypeLabel } from '@invoicebox/core';
import { Activity, CheckCircle2, Clock, Loader2, XCircle } from 'lucide-react';
import { EmptyState } from '../../../components/ui/empty-state';
import { JobStatusBadge } from './job-status-badge';

const ICONS = { pending: Clock, running: Loader2, completed: CheckCircle2, failed: XCircle } as const;
const ICON_COLORS = {
  pending: 'text-slate-400',
  running: 'text-sky-500 animate-spin',
  completed: 'text-emerald-500',
  failed: 'text-red-500',
} as const;

export function ActivityRow({ job }: { job: Job }) {
  const created = new Date(job.created_at);
  const Icon = ICONS[job.status];
  const message = job.message ?? job.error;
  return (
    <li className="flex items-start gap-3 py-4">
      <Icon className={`mt-0.5 h-5 w-5 shrink-0 ${ICON_COLORS[job.status]}`} aria-hidden="true" />
      <div className="min-w-0 flex-1">
        <div className="flex flex-wrap items-center justify-between gap-2">
          <p className="font-medium text-slate-900">{jobTypeLabel(job.type)}</p>
          <JobStatusBadge status={job.status} />
        </div>
        <p className="mt-0.5 text-sm text-slate-500">
          <time dateTime={job.created_at}>
            {created.toLocaleDateString()} · {created.toLocaleTimeString()}
          </time>
          {job.progress > 0 ? <span className="ml-2">{job.progress}% complete</span> : null}
        </p>
        {message ? <p className="mt-1 break-words text-sm text-slate-700">{message}</p> : null}
      </div>
    </li>
  );
}

export function ActivityList({ jobs }: { jobs: readonly Job[] }) {
  if (jobs.length === 0) {
    return (
      <EmptyState
        icon={Activity}
        title="No activity yet"
        description="Syncs, uploads and analyses you start will be listed here."
      />
    );
  }
  return (
    <ul className="divide-y divide-slate-100" aria-label="Activity">
      {jobs.map((job) => (
        <ActivityRow key={job.id} job={job} />
      ))}
    </ul>
  );
}
