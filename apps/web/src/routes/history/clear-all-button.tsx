import { Trash2 } from 'lucide-react';
import { useState } from 'react';
import { Button } from '../../components/ui/button';
import { ConfirmDialog } from '../../components/ui/dialog';

export interface ClearAllButtonProps {
  disabled: boolean;
  what: string;
  onConfirm: () => Promise<unknown> | undefined;
  pending?: boolean;
}

/** 'Clear All' with its confirm dialog (spec §2 History). */
export function ClearAllButton({ disabled, what, onConfirm, pending }: ClearAllButtonProps) {
  const [open, setOpen] = useState(false);
  const confirm = async () => {
    setOpen(false);
    await onConfirm()?.catch(() => undefined);
  };
  return (
    <>
      <Button variant="outline" size="sm" disabled={disabled || pending} onClick={() => setOpen(true)}>
        <Trash2 className="h-4 w-4" aria-hidden="true" />
        Clear All
      </Button>
      <ConfirmDialog
        open={open}
        title={`Clear all ${what}?`}
        description={`This action cannot be undone. This will permanently delete all ${what}.`}
        confirmLabel="Clear All"
        onConfirm={confirm}
        onCancel={() => setOpen(false)}
        pending={pending}
      />
    </>
  );
}
