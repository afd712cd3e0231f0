import { useQueryClient } from '@tanstack/react-query';
import { LogOut, PanelLeft, RefreshCw } from 'lucide-react';
import { useState } from 'react';
import { Link } from 'react-router';
import { toast } from 'sonner';
import { AccountSelector } from '../../features/accounts/components/account-selector';
import { useLogout } from '../../features/auth/api/logout';
import { Logo } from '../logo';
import { Button } from '../ui/button';

export interface HeaderProps {
  sidebarOpen: boolean;
  onToggleSidebar: () => void;
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
        <AccountSelector />
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
