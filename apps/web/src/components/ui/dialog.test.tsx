import { render, screen } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { useState } from 'react';
import { describe, expect, it, vi } from 'vitest';
import { Button } from './button';
import { Dialog } from './dialog';

/** A parent that re-renders while the dialog is open (each keystroke), passing a new onClose each time. */
function Form({ onClosed }: { onClosed: () => void }) {
  const [open, setOpen] = useState(false);
  const [name, setName] = useState('');
  return (
    <>
      <Button onClick={() => setOpen(true)}>Open</Button>
      <Dialog
        open={open}
        onClose={() => {
          setOpen(false);
          onClosed();
        }}
        title="Add"
        footer={<Button onClick={() => setOpen(false)}>Save</Button>}
      >
        <label htmlFor="first">First</label>
        <input id="first" />
        <label htmlFor="name">Name</label>
        <input id="name" value={name} onChange={(e) => setName(e.target.value)} />
      </Dialog>
    </>
  );
}

describe('Dialog (keyboard)', () => {
  it('keeps focus where the person types while its parent re-renders', async () => {
    const user = userEvent.setup();
    render(<Form onClosed={() => {}} />);
    await user.click(screen.getByRole('button', { name: 'Open' }));
    expect(screen.getByLabelText('First')).toHaveFocus();
    await user.tab();
    await user.keyboard('Olive');
    expect(screen.getByLabelText('Name')).toHaveValue('Olive');
    expect(screen.getByLabelText('Name')).toHaveFocus();
  });

  it('traps Tab and Shift+Tab inside, closes on Escape and gives focus back to what opened it', async () => {
    const onClosed = vi.fn();
    const user = userEvent.setup();
    render(<Form onClosed={onClosed} />);
    const opener = screen.getByRole('button', { name: 'Open' });
    await user.click(opener);
    await user.tab();
    await user.tab();
    expect(screen.getByRole('button', { name: 'Save' })).toHaveFocus();
    await user.tab();
    expect(screen.getByLabelText('First')).toHaveFocus();
    await user.tab({ shift: true });
    expect(screen.getByRole('button', { name: 'Save' })).toHaveFocus();
    await user.keyboard('{Escape}');
    expect(screen.queryByRole('dialog')).toBeNull();
    expect(onClosed).toHaveBeenCalledTimes(1);
    expect(opener).toHaveFocus();
  });
});
