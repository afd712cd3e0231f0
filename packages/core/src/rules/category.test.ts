import { describe, expect, it } from 'vitest';
import { invoiceCategory } from './category';

describe('invoice category by rules', () => {
  it.each([
    [['Your receipt from Acme'], 'Receipt'],
    [['Ihre Rechnung Nr. 123'], 'Invoice'],
    [['Facture disponible', 'facture_2024_03.pdf'], 'Invoice'],
    [['Subscription renewal', 'invoice.pdf'], 'Subscription'],
    [['Monthly statement', 'statement-03.pdf'], 'Statement'],
    [['Your electricity bill'], 'Bill'],
    [['Documents', 'scan_0001.pdf'], 'Other'],
    [[null, 'ricevuta-42.pdf'], 'Receipt'],
  ] as const)('%j → %s', (texts, expected) => {
    expect(invoiceCategory([...texts])).toBe(expected);
  });
});
