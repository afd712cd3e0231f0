import { AlertCircle, AlertTriangle, Info, type LucideIcon } from 'lucide-react';
import type { HTMLAttributes, ReactNode } from 'react';
import { cn } from '../../lib/cn';

export type AlertVariant = 'info' | 'warning' | 'destructive';

const variants: Record<AlertVariant, { box: string; icon: LucideIcon }> = {
  info: { box: 'border-sky-200 bg-sky-50 text-sky-900', icon: Info },
  warning: { box: 'border-amber-300 bg-amber-50 text-amber-900', icon: AlertTriangle },
  destructive: { box: 'border-red-200 bg-red-50 text-red-800', icon: AlertCircle },
};

export interface AlertProps extends Omit<HTMLAttributes<HTMLDivElement>, 'title'> {
  variant?: AlertVariant;
  title?: ReactNode;
}

/**
 * A message box. Warnings and errors are announced (role alert); information is a plain status note, so that
 * screen readers are not interrupted by text that is always there.
 */
export function Alert({ variant = 'info', title, className, children, ...props }: AlertProps) {
  const { box, icon: Icon } = variants[variant];
  return (
    <div
      role={variant === 'info' ? 'note' : 'alert'}
      className={cn('flex gap-3 rounded-lg border p-3 text-sm', box, className)}
      {...props}
    >
      <Icon className="mt-0.5 h-4 w-4 shrink-0" aria-hidden="true" />
      <div className="min-w-0 space-y-1">
        {title ? <p className="font-medium">{title}</p> : null}
        {children ? <div>{children}</div> : null}
      </div>
    </div>
  );
}
