import { describe, expect, it } from 'vitest';
import { DISPLAY_STATUSES, displayStatus, storedStatusForFilter } from './invoice-status';

describe('displayStatus (SPEC §4)', () => {
  it.each([
    [{ status: 'uploaded', drive_file_id: 'abc' }, 'ready_to_process', 'Ready to Process', 'default', 'green'],
    [{ status: 'uploaded', drive_file_id: null }, 'needs_action', 'Needs Action', 'secondary', 'yellow'],
    [{ status: 'uploaded', drive_file_id: '' }, 'needs_action', 'Needs Action', 'secondary', 'yellow'],
    [{ status: 'uploaded' }, 'needs_action', 'Needs Action', 'secondary', 'yellow'],
    [{ status: 'failed', drive_file_id: 'abc' }, 'missing', 'Missing', 'destructive', 'red'],
    [{ status: 'failed' }, 'missing', 'Missing', 'destructive', 'red'],
    [{ status: 'pending' }, 'needs_action', 'Needs Action', 'secondary', 'yellow'],
    [{ status: 'processing', drive_file_id: 'x' }, 'needs_action', 'Needs Action', 'secondary', 'yellow'],
    [{ status: null }, 'needs_action', 'Needs Action', 'secondary', 'yellow'],
  ])('%j → %s', (invoice, status, label, badge, color) => {
    expect(displayStatus(invoice)).toEqual({ status, label, badge, color });
  });

  it('has one entry per display status', () => {
    expect(Object.keys(DISPLAY_STATUSES)).toEqual(['ready_to_process', 'missing', 'needs_action']);
  });
});

describe('storedStatusForFilter', () => {
  it.each([
    ['ready_to_process', 'uploaded'],
    ['missing', 'failed'],
    ['needs_action', 'pending'],
    ['uploaded', 'uploaded'],
    ['all', 'all'],
  ])('%s → %s', (filter, stored) => {
    expect(storedStatusForFilter(filter)).toBe(stored);
  });
});
