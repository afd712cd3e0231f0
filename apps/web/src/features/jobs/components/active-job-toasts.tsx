import { useActiveJob } from '../hooks/use-active-job';

/** Mounted once in the shell so the active job is followed on every screen. */
export function ActiveJobToasts() {
  useActiveJob();
  return null;
}
