import { describe, expect, it } from 'vitest';
import { dashboardStatus, formatStatementAmount, signedStatementAmount, sizeInMb } from './format';

describe('bank formatting (spec §2, §9)', () => {
  it('shows statement amounts with 2 fraction digits, a minus for debits and a plus otherwise', () => {
    expect(formatStatementAmount(1234.5, 'EUR')).toBe('€1,234.50');
    expect(signedStatementAmount(4.1, 'debit', 'USD')).toBe('-$4.10');
    expect(signedStatementAmount(100, 'credit', 'usd')).toBe('+$100.00');
    expect(signedStatementAmount(3, 'credit', 'EURO')).toBe('+EURO 3.00');
  });

  it('gives the size in MB and maps any other status to failed', () => {
    expect(sizeInMb(1024 * 1024 * 1.5)).toBe('1.50 MB');
    expect(dashboardStatus('processed')).toBe('processed');
    expect(dashboardStatus('pending')).toBe('pending');
    expect(dashboardStatus('archived')).toBe('failed');
  });
});
