import { Button } from '../../components/ui/button';
import { Card, CardContent, CardDescription, CardHeader, CardTitle } from '../../components/ui/card';
import { Spinner } from '../../components/ui/spinner';
import { useClearJobs } from '../../features/jobs/api/clear-jobs';
import { useJobs } from '../../features/jobs/api/get-jobs';
import { ActivityList } from '../../features/jobs/components/activity-list';
import { ClearAllButton } from './clear-all-button';

export function ActivityTab() {
  const jobs = useJobs();
  const clear = useClearJobs();
  const list = jobs.data?.jobs ?? [];
  return (
    <Card>
      <CardHeader className="flex-row items-start justify-between gap-4">
        <div>
          <CardTitle>Activity</CardTitle>
          <CardDescription>The last 20 jobs: syncs, uploads and analyses.</CardDescription>
        </div>
        <ClearAllButton
          what="activity logs"
          disabled={list.length === 0}
          pending={clear.isPending}
          onConfirm={() => clear.mutateAsync()}
        />
      </CardHeader>
      <CardContent>
        {jobs.isPending ? <Spinner label="Loading activity…" /> : null}
        {jobs.error ? (
          <div role="alert" className="flex flex-wrap items-center gap-3 text-sm text-red-700">
            <span>{jobs.error.message}</span>
            <Button variant="outline" size="sm" onClick={() => jobs.refetch()}>
              Retry
            </Button>
          </div>
        ) : null}
        {jobs.data ? <ActivityList jobs={list} /> : null}
      </CardContent>
    </Card>
  );
}
