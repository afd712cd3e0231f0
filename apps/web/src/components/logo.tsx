import { FileText } from 'lucide-react';

export function Logo() {
  return (
    <span className="inline-flex items-center gap-2">
      <span className="flex h-8 w-8 items-center justify-center rounded-lg bg-indigo-600 text-white">
        <FileText className="h-4.5 w-4.5" aria-hidden="true" />
      </span>
      <span className="text-lg font-semibold tracking-tight text-slate-900">Invoicebox</span>
    </span>
  );
}
