import { useCallback, useEffect, useState } from 'react';
import { SIDEBAR_BREAKPOINT_PX } from '../../lib/constants';

const WIDE_QUERY = `(min-width: ${SIDEBAR_BREAKPOINT_PX}px)`;

function isWide(): boolean {
  if (typeof window === 'undefined') return true;
  if (typeof window.matchMedia === 'function') return window.matchMedia(WIDE_QUERY).matches;
  return window.innerWidth >= SIDEBAR_BREAKPOINT_PX;
}

/** Spec §2: open by default from 1024px up; below that a link click closes it; Ctrl/Cmd+B toggles it. */
export function useSidebar() {
  const [open, setOpen] = useState(isWide);
  const toggle = useCallback(() => setOpen((o) => !o), []);
  const onNavigate = useCallback(() => {
    if (!isWide()) setOpen(false);
  }, []);

  useEffect(() => {
    const onKeyDown = (event: KeyboardEvent) => {
      if ((event.ctrlKey || event.metaKey) && !event.altKey && !event.shiftKey && event.key.toLowerCase() === 'b') {
        event.preventDefault();
        toggle();
      }
    };
    window.addEventListener('keydown', onKeyDown);
    return () => window.removeEventListener('keydown', onKeyDown);
  }, [toggle]);

  return { open, setOpen, toggle, onNavigate };
}
