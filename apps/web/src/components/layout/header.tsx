import { useQueryClient } from '@tanstack/react-query';
import { LogOut, Mail, PanelLeft, RefreshCw } from 'lucide-react';
import { useState } from 'react';
import { Link } from 'react-router';
import { toast } from 'sonner';
import { useMe } from '../../features/auth/api/get-me';
import { useLogout } from '../../features/auth/api/logout';
import { Logo } from '../logo';
import { Button } from '../ui/button';

export interface HeaderProps {
  sidebarOpen: boolean;
  onToggleSidebar: () => void;
}

/** Until mail accounts can be connected, the selector slot shows the signed-in owner. */
function AccountSlot() {
  const me = useMe();
  const email = me.data?.user.email;
  if (!email) return null;
  return (
    <div
      className="hidden items-center gap-2 rounded-lg border border-slate-200 bg-slate-50 px-3 py-1.5 text-sm text-slate-700 md:flex"
      title="Signed-in account"
    >
      <Mail className="h-4 w-4 text-slate-400" aria-hidden="true" />
      <span className="sr-only">Account: </span>
      <span className="max-w-56 truncate">{email}</span>
    </div>
  );
}

export function Header({ sidebarOpen, onToggleSidebar }: HeaderProps) {
  const client = useQueryClient();
  const logout = useLogout();
  const [refreshing, setRefreshing] = useState(false);

  const refresh = async () => {
    setRefreshing(true);
    try {
      await client.invalidateQueries(undefined, { throwOnError: true });
      toast.success('Data refreshed successfully');
    } catch {
      toast.error('Failed to refresh data');
    } finally {
      setRefreshing(false);
    }
  };

  return (
    <header className="sticky top-0 z-40 flex h-16 items-center gap-3 border-b border-slate-200 bg-white/95 px-4 backdrop-blur">
      <Button
        variant="ghost"
        size="icon"
        onClick={onToggleSidebar}
        aria-label="Toggle sidebar"
        aria-controls="app-sidebar"
        aria-expanded={sidebarOpen}
        title="Toggle sidebar (Ctrl+B)"
      >
        <PanelLeft className="h-5 w-5" aria-hidden="true" />
      </Button>
      <Link to="/dashboard" className="rounded-lg focus-visible:outline-2 focus-visible:outline-indigo-600">
        <Logo />
      </Link>
      <div className="ml-auto flex items-center gap-2">
        <AccountSlot />
        <Button variant="outline" size="sm" onClick={refresh} disabled={refreshing}>
          <RefreshCw className={refreshing ? 'h-4 w-4 animate-spin' : 'h-4 w-4'} aria-hidden="true" />
          <span className="sr-only sm:not-sr-only">Refresh</span>
        </Button>
        <Button variant="ghost" size="sm" onClick={logout}>
          <LogOut className="h-4 w-4" aria-hidden="true" />
          <span className="sr-only sm:not-sr-only">Log Out</span>
        </Button>
      </div>
    </header>
  );
}
