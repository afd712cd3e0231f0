import { Check, X } from 'lucide-react';

const BEFORE = [
  'Searching the inbox for last month’s invoices',
  'Downloading attachments one by one',
  'Renaming and filing PDFs by hand',
  'Ticking off bank transactions in a spreadsheet',
];
const AFTER = [
  'Invoices found automatically in every mailbox',
  'Attachments filed in your drive by date',
  'Amounts, vendors and dates extracted for you',
  'Bank transactions matched to their invoices',
];

export function BeforeAfter() {
  return (
    <section aria-labelledby="before-after-heading" className="mx-auto max-w-5xl px-6 py-12">
      <h2 id="before-after-heading" className="text-center text-3xl font-bold text-slate-900">
        Before and after Invoicebox
      </h2>
      <div className="mt-10 grid gap-6 md:grid-cols-2">
        <div className="rounded-xl border border-red-100 bg-red-50/60 p-6">
          <h3 className="text-lg font-semibold text-red-800">Before</h3>
          <ul className="mt-4 space-y-3">
            {BEFORE.map((item) => (
              <li key={item} className="flex items-start gap-2 text-slate-700">
                <X className="mt-0.5 h-5 w-5 shrink-0 text-red-500" aria-hidden="true" />
                {item}
              </li>
            ))}
          </ul>
        </div>
        <div className="rounded-xl border border-emerald-100 bg-emerald-50/60 p-6">
          <h3 className="text-lg font-semibold text-emerald-800">After</h3>
          <ul className="mt-4 space-y-3">
            {AFTER.map((item) => (
              <li key={item} className="flex items-start gap-2 text-slate-700">
                <Check className="mt-0.5 h-5 w-5 shrink-0 text-emerald-500" aria-hidden="true" />
                {item}
              </li>
            ))}
          </ul>
        </div>
      </div>
    </section>
  );
}
