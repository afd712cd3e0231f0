import type { HTMLAttributes } from 'react';
import { cn } from '../../lib/cn';

export type BadgeVariant = 'default' | 'secondary' | 'success' | 'warning' | 'info' | 'destructive' | 'outline';

const variants: Record<BadgeVariant, string> = {
  default: 'bg-indigo-100 text-indigo-800 ring-indigo-200',
  secondary: 'bg-slate-100 text-slate-700 ring-slate-200',
  success: 'bg-emerald-100 text-emerald-800 ring-emerald-200',
  warning: 'bg-amber-100 text-amber-800 ring-amber-200',
  info: 'bg-sky-100 text-sky-800 ring-sky-200',
  destructive: 'bg-red-100 text-red-800 ring-red-200',
  outline: 'bg-white text-slate-700 ring-slate-300',
};

export interface BadgeProps extends HTMLAttributes<HTMLSpanElement> {
  variant?: BadgeVariant;
}

export function Badge({ variant = 'default', className, ...props }: BadgeProps) {
  return (
    <span
      className={cn(
        'inline-flex items-center rounded-full px-2.5 py-0.5 text-xs font-medium ring-1 ring-inset',
        variants[variant],
        className,
      )}
      {...props}
    />
  );
}
