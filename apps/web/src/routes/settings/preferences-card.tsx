import { type Preferences, PreferencesSchema } from '@invoicebox/core';
import { useQuery, useQueryClient } from '@tanstack/react-query';
import { SlidersHorizontal } from 'lucide-react';
import { useId, useState } from 'react';
import { toast } from 'sonner';
import { Card, CardContent, CardDescription, CardHeader, CardTitle } from '../../components/ui/card';
import { api } from '../../lib/api-client';

const preferencesKey = ['preferences'] as const;

/** Settings → Invoice detection: whether an invoice email needs a document attached (spec §5 default: yes). */
export function PreferencesCard() {
  const client = useQueryClient();
  const id = useId();
  const [saving, setSaving] = useState(false);
  const preferences = useQuery({
    queryKey: preferencesKey,
    queryFn: ({ signal }) => api.get('/settings/preferences', { schema: PreferencesSchema, signal }),
    // Always asked again on the Settings screen: a cache persisted just before a reload may be older.
    staleTime: 0,
  });

  const save = async (next: Preferences) => {
    const previous = preferences.data;
    // Shown at once; put back if the server refuses.
    client.setQueryData(preferencesKey, next);
    setSaving(true);
    try {
      client.setQueryData(
        preferencesKey,
        await api.put('/settings/preferences', { schema: PreferencesSchema, body: next }),
      );
      toast.success('Preferences saved; they apply to the next sync or import');
    } catch (error) {
      client.setQueryData(preferencesKey, previous);
      toast.error(error instanceof Error ? error.message : 'Could not save the preferences');
    } finally {
      setSaving(false);
    }
  };

  return (
    <Card>
      <CardHeader>
        <CardTitle className="flex items-center gap-2">
          <SlidersHorizontal className="h-5 w-5 text-indigo-600" aria-hidden="true" />
          Invoice detection
        </CardTitle>
        <CardDescription>How Invoicebox decides which emails are invoices.</CardDescription>
      </CardHeader>
      <CardContent>
        <label htmlFor={id} className="flex items-start gap-3 text-sm text-slate-700">
          <input
            id={id}
            type="checkbox"
            className="mt-0.5"
            disabled={!preferences.data || saving}
            checked={preferences.data?.attachments_required ?? true}
            onChange={(e) => void save({ attachments_required: e.target.checked })}
          />
          <span>
            <span className="font-medium text-slate-900">Only emails with a document attached</span>
            <span className="block text-slate-500">
              Off: invoice emails without a PDF or image (a receipt in the mail itself) count as well, with the mail
              kept as their document; the list shows them when 'Has Attachments' is unchecked.
            </span>
          </span>
        </label>
      </CardContent>
    </Card>
  );
}
