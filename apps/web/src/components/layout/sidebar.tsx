import { NavLink } from 'react-router';
import { cn } from '../../lib/cn';
import { NAV_ITEMS } from './nav-items';

export interface SidebarProps {
  open: boolean;
  onNavigate: () => void;
  onClose: () => void;
}

export function Sidebar({ open, onNavigate, onClose }: SidebarProps) {
  return (
    <>
      {open ? (
        <div className="fixed inset-0 top-16 z-20 bg-slate-900/30 lg:hidden" aria-hidden="true" onClick={onClose} />
      ) : null}
      <aside
        id="app-sidebar"
        hidden={!open}
        // From 1024px the white column is a flex item of the page row, so it runs the page's full height (a long
        // page included); the links inside it stay in view while the page scrolls.
        className="fixed top-16 bottom-0 left-0 z-30 w-64 shrink-0 overflow-y-auto border-r border-slate-200 bg-white lg:static lg:overflow-visible"
      >
        <nav
          aria-label="Main navigation"
          className="flex flex-col gap-1 p-3 lg:sticky lg:top-16 lg:max-h-[calc(100vh-4rem)] lg:overflow-y-auto"
        >
          {NAV_ITEMS.map(({ to, label, description, icon: Icon }) => (
            <NavLink
              key={to}
              to={to}
              onClick={onNavigate}
              className={({ isActive }) =>
                cn(
                  'group flex items-start gap-3 rounded-lg px-3 py-2.5 transition-colors',
                  'focus-visible:outline-2 focus-visible:outline-offset-2 focus-visible:outline-indigo-600',
                  isActive ? 'bg-indigo-50 text-indigo-700' : 'text-slate-700 hover:bg-slate-100',
                )
              }
            >
              {({ isActive }) => (
                <>
                  <Icon
                    className={cn('mt-0.5 h-5 w-5 shrink-0', isActive ? 'text-indigo-600' : 'text-slate-400')}
                    aria-hidden="true"
                  />
                  <span className="flex min-w-0 flex-col">
                    <span className="text-sm font-medium">{label}</span>
                    <span className={cn('text-xs', isActive ? 'text-indigo-800' : 'text-slate-600')}>
                      {description}
                    </span>
                  </span>
                </>
              )}
            </NavLink>
          ))}
        </nav>
      </aside>
    </>
  );
}
