import { UserRound } from 'lucide-react';
import { Badge } from '../../components/ui/badge';
import { Card, CardContent, CardDescription, CardHeader, CardTitle } from '../../components/ui/card';
import { Spinner } from '../../components/ui/spinner';
import { useMe } from '../../features/auth/api/get-me';

/** Shows the signed-in owner; connecting further mail accounts arrives with the accounts module. */
export function AccountManagement() {
  const me = useMe();
  return (
    <Card>
      <CardHeader>
        <CardTitle>Connected Accounts</CardTitle>
        <CardDescription>Connecting mail accounts is not available on this server yet.</CardDescription>
      </CardHeader>
      <CardContent>
        {me.isPending ? <Spinner /> : null}
        {me.data ? (
          <div className="flex items-center gap-3 rounded-lg border border-slate-200 p-4">
            <span className="flex h-10 w-10 items-center justify-center rounded-full bg-indigo-100 text-indigo-600">
              <UserRound className="h-5 w-5" aria-hidden="true" />
            </span>
            <div className="min-w-0 flex-1">
              <p className="truncate font-medium text-slate-900">{me.data.user.display_name || me.data.user.email}</p>
              <p className="truncate text-sm text-slate-500">{me.data.user.email}</p>
            </div>
            <Badge variant="success">Active</Badge>
          </div>
        ) : null}
      </CardContent>
    </Card>
  );
}
