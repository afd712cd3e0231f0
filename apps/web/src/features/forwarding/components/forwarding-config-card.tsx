import { Mail, Plus, Save, X } from 'lucide-react';
import { type KeyboardEvent, useId, useState } from 'react';
import { Button } from '../../../components/ui/button';
import { Card, CardContent, CardDescription, CardHeader, CardTitle } from '../../../components/ui/card';
import { cn } from '../../../lib/cn';
import { addRecipient } from '../recipients';

export interface ForwardingDraft {
  enabled: boolean;
  target_emails: string[];
}

interface Props {
  draft: ForwardingDraft;
  onChange: (next: ForwardingDraft) => void;
  onSave: () => void;
  saving: boolean;
  /** The draft differs from what the server holds. */
  dirty: boolean;
  maxRecipients: number;
  /** While the saved configuration is still loading nothing can be edited. */
  disabled?: boolean;
}

/** Spec §2 configuration card: the enable switch, the recipients with remove buttons, the address input, Save. */
export function ForwardingConfigCard({ draft, onChange, onSave, saving, dirty, maxRecipients, disabled }: Props) {
  const ids = { switch: useId(), switchHelp: useId(), input: useId(), error: useId(), list: useId() };
  const [input, setInput] = useState('');
  const [error, setError] = useState<string | null>(null);

  const add = () => {
    const result = addRecipient(draft.target_emails, input, maxRecipients);
    if (result.kind === 'ignored') return;
    if (result.kind === 'refused') {
      setError(result.message);
      return;
    }
    setError(null);
    setInput('');
    onChange({ ...draft, target_emails: result.recipients });
  };
  const onKeyDown = (event: KeyboardEvent<HTMLInputElement>) => {
    if (event.key !== 'Enter') return;
    event.preventDefault();
    add();
  };
  const remove = (address: string) =>
    onChange({ ...draft, target_emails: draft.target_emails.filter((a) => a !== address) });

  return (
    <Card>
      <CardHeader>
        <CardTitle>Configuration</CardTitle>
        <CardDescription>Where invoice emails are forwarded to.</CardDescription>
      </CardHeader>
      <CardContent className="space-y-6">
        <div className="flex items-start justify-between gap-4">
          <div>
            <label htmlFor={ids.switch} className="font-medium text-slate-900">
              Enable forwarding
            </label>
            <p id={ids.switchHelp} className="text-sm text-slate-500">
              Forward new invoices to the addresses below.
            </p>
          </div>
          <button
            id={ids.switch}
            type="button"
            role="switch"
            aria-checked={draft.enabled}
            aria-describedby={ids.switchHelp}
            disabled={disabled}
            onClick={() => onChange({ ...draft, enabled: !draft.enabled })}
            className={cn(
              'relative inline-flex h-6 w-11 shrink-0 items-center rounded-full transition-colors',
              'focus-visible:outline-2 focus-visible:outline-offset-2 focus-visible:outline-indigo-600',
              'disabled:cursor-not-allowed disabled:opacity-50',
              draft.enabled ? 'bg-indigo-600' : 'bg-slate-300',
            )}
          >
            <span
              aria-hidden="true"
              className={cn(
                'inline-block h-5 w-5 rounded-full bg-white shadow transition-transform',
                draft.enabled ? 'translate-x-5' : 'translate-x-0.5',
              )}
            />
          </button>
        </div>

        <div className="space-y-3">
          <h3 id={ids.list} className="font-medium text-slate-900">
            Recipients ({draft.target_emails.length} of {maxRecipients})
          </h3>
          {draft.target_emails.length ? (
            <ul aria-labelledby={ids.list} className="space-y-2">
              {draft.target_emails.map((address) => (
                <li
                  key={address}
                  className="flex items-center justify-between gap-2 rounded-lg border border-slate-200 bg-slate-50 px-3 py-1.5"
                >
                  <span className="flex min-w-0 items-center gap-2 text-sm text-slate-800">
                    <Mail className="h-4 w-4 shrink-0 text-slate-400" aria-hidden="true" />
                    <span className="break-all">{address}</span>
                  </span>
                  <Button
                    size="icon"
                    variant="ghost"
                    aria-label={`Remove ${address}`}
                    disabled={disabled}
                    onClick={() => remove(address)}
                  >
                    <X className="h-4 w-4" aria-hidden="true" />
                  </Button>
                </li>
              ))}
            </ul>
          ) : (
            <p className="text-sm text-slate-500">No recipient addresses yet.</p>
          )}
          <div className="space-y-1">
            <label htmlFor={ids.input} className="block text-sm font-medium text-slate-700">
              Recipient email address
            </label>
            <div className="flex gap-2">
              <input
                id={ids.input}
                type="email"
                inputMode="email"
                autoComplete="email"
                placeholder="accountant@example.com"
                value={input}
                disabled={disabled}
                aria-invalid={error ? true : undefined}
                aria-describedby={error ? ids.error : undefined}
                onChange={(e) => {
                  setInput(e.target.value);
                  if (error) setError(null);
                }}
                onKeyDown={onKeyDown}
                className="h-10 min-w-0 flex-1 rounded-lg border border-slate-300 px-3 text-sm focus:border-indigo-500 focus:outline-none focus:ring-2 focus:ring-indigo-200 aria-[invalid=true]:border-red-400"
              />
              <Button variant="outline" onClick={add} disabled={disabled} aria-label="Add recipient">
                <Plus className="h-4 w-4" aria-hidden="true" />
                <span className="hidden sm:inline">Add</span>
              </Button>
            </div>
            {error ? (
              <p id={ids.error} role="alert" className="text-sm text-red-700">
                {error}
              </p>
            ) : null}
          </div>
        </div>

        <div className="flex flex-wrap items-center gap-3">
          <Button onClick={onSave} disabled={disabled || saving}>
            <Save className="h-4 w-4" aria-hidden="true" />
            {saving ? 'Saving…' : 'Save Configuration'}
          </Button>
          {dirty ? <span className="text-sm text-amber-700">Unsaved changes</span> : null}
        </div>
      </CardContent>
    </Card>
  );
}
