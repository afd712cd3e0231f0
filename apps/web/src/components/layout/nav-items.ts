import { BarChart3, FileSearch, Forward, History, Landmark, type LucideIcon, Settings } from 'lucide-react';

export interface NavItem {
  to: string;
  label: string;
  description: string;
  icon: LucideIcon;
}

/** The sidebar of spec §2, in its order. */
export const NAV_ITEMS: readonly NavItem[] = [
  { to: '/dashboard', label: 'Dashboard', description: 'Overview of invoices and statements', icon: BarChart3 },
  {
    to: '/invoice-analysis',
    label: 'Invoice Analysis',
    description: 'Sync mail and browse invoices',
    icon: FileSearch,
  },
  {
    to: '/bank-analysis',
    label: 'Bank Statement Analysis',
    description: 'Upload and reconcile a statement',
    icon: Landmark,
  },
  { to: '/forwarding', label: 'Forwarding', description: 'Send invoices to other addresses', icon: Forward },
  { to: '/history', label: 'History', description: 'Past jobs and statement uploads', icon: History },
  { to: '/settings', label: 'Settings', description: 'Accounts and privacy', icon: Settings },
];
