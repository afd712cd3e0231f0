import { FolderTree, Landmark, type LucideIcon, ScanSearch } from 'lucide-react';

const FEATURES: ReadonlyArray<{ title: string; description: string; icon: LucideIcon }> = [
  {
    title: 'Smart Gmail Scanning',
    description: 'Finds invoice emails and their attachments, and leaves newsletters and confirmations out.',
    icon: ScanSearch,
  },
  {
    title: 'Drive Organization',
    description: 'Files every invoice in your own drive, in folders by date, without duplicates.',
    icon: FolderTree,
  },
  {
    title: 'Bank Statement Analysis',
    description: 'Reads your bank statement PDFs and matches each transaction to its invoice.',
    icon: Landmark,
  },
];

export function FeatureCards() {
  return (
    <section aria-labelledby="features-heading" className="mx-auto max-w-6xl px-6 py-12">
      <h2 id="features-heading" className="sr-only">
        Features
      </h2>
      <ul className="grid gap-6 md:grid-cols-3">
        {FEATURES.map(({ title, description, icon: Icon }) => (
          <li key={title} className="rounded-xl border border-slate-200 bg-white p-6 shadow-sm">
            <span className="flex h-11 w-11 items-center justify-center rounded-lg bg-indigo-100 text-indigo-600">
              <Icon className="h-6 w-6" aria-hidden="true" />
            </span>
            <h3 className="mt-4 text-lg font-semibold text-slate-900">{title}</h3>
            <p className="mt-2 text-sm text-slate-600">{description}</p>
          </li>
        ))}
      </ul>
    </section>
  );
}
