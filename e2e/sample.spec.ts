import { type APIRequestContext, expect, test } from '@playwright/test';
import { signInAsOwner } from './owner';
import { shot } from './screenshot-path';

/**
 * "Try it with sample data" from Settings (the owner of the shared e2e server may already have invoices from other
 * specs, so the card is used rather than the empty Dashboard's button): the sample is imported through the real mail
 * import and statement analysis, shown as sample data, and removed again at the end. The owner's active account is
 * put back, so no other spec sees a difference whatever the order.
 */
interface SampleStatus {
  loaded: boolean;
  importing: boolean;
  invoices: number;
  account_id: string | null;
  statement_ids: string[];
}

const auth = (token: string) => ({ authorization: `Bearer ${token}` });

async function sampleStatus(request: APIRequestContext, token: string): Promise<SampleStatus> {
  return (await (await request.get('/api/v1/sample-data', { headers: auth(token) })).json()) as SampleStatus;
}

/** Removes sample data left by an earlier, interrupted run (after its import has finished). */
async function removeSample(request: APIRequestContext, token: string): Promise<void> {
  await expect.poll(async () => (await sampleStatus(request, token)).importing, { timeout: 180_000 }).toBe(false);
  if ((await sampleStatus(request, token)).loaded) {
    expect((await request.delete('/api/v1/sample-data', { headers: auth(token) })).ok()).toBe(true);
  }
}

test('loads the sample data with one click, marks it as sample, and removes it with one click', async ({
  page,
  request,
}) => {
  test.setTimeout(300_000);
  const token = await signInAsOwner(page, request);
  await removeSample(request, token);
  const before = (await (await request.get('/api/v1/gmail/accounts', { headers: auth(token) })).json()) as {
    session: { activeUserId: string | null };
  };

  try {
    await page.goto('/settings');
    const card = page.locator('div', { has: page.getByText('Sample data', { exact: true }) }).filter({
      has: page.getByRole('button', { name: 'Try it with sample data' }),
    });
    await card.getByRole('button', { name: 'Try it with sample data' }).last().click();
    await expect(page.getByText('Importing the sample mailbox and bank statement…').first()).toBeVisible();
    // The import and the statement analysis finish; the card says what it loaded.
    await expect(page.getByText(/Loaded: \d+ invoices in the Sample mailbox/)).toBeVisible({ timeout: 180_000 });
    const status = await sampleStatus(request, token);
    expect(status.invoices).toBeGreaterThanOrEqual(8);
    expect(status.statement_ids).toHaveLength(1);
    // The sample mailbox carries the badge in the account list.
    const row = page.locator('li', { hasText: 'sample@invoicebox.example' });
    await expect(row.getByText('Sample data')).toBeVisible();

    // The statement was read and pays some of the sample invoices.
    const statement = (await (
      await request.get(`/api/v1/bank-statements/${status.statement_ids[0]}`, { headers: auth(token) })
    ).json()) as { status: string; reconciliation_result: { matched_transactions: number } };
    expect(statement.status).toBe('processed');
    expect(statement.reconciliation_result.matched_transactions).toBeGreaterThanOrEqual(4);

    // The Dashboard and Invoice Analysis say that this is sample data.
    await page.goto('/dashboard');
    await expect(page.getByText(/You are looking at sample data: \d+ invoices/)).toBeVisible();
    await page.screenshot({ path: shot('sample-dashboard.png'), fullPage: true });
    await page.goto('/invoice-analysis');
    await expect(page.getByText(/You are looking at sample data/)).toBeVisible();
    // Each sample invoice's card carries the badge beside its vendor; the API says which invoices are sample.
    const listed = (await (
      await request.get('/api/v1/invoices', {
        headers: auth(token),
        params: { user_ids: status.account_id ?? '', limit: '100' },
      })
    ).json()) as { invoices: Array<{ vendor: string | null; sample?: boolean }> };
    expect(listed.invoices.length).toBe(status.invoices);
    expect(listed.invoices.every((i) => i.sample === true)).toBe(true);
    const vendor = listed.invoices.find((i) => i.vendor)?.vendor as string;
    await page.getByLabel('Search').fill(vendor);
    await page.getByLabel('Search').press('Enter');
    const heading = page.getByRole('heading', { level: 3, name: vendor, exact: true }).first();
    await expect(heading).toBeVisible();
    await expect(heading.locator('xpath=..').getByText('Sample data', { exact: true })).toBeVisible();
    await page.evaluate(() => window.scrollTo(0, 0));
    await page.screenshot({ path: shot('sample-invoice-cards'), fullPage: true });

    // One click removes it.
    await page.getByRole('button', { name: 'Remove sample data' }).click();
    await expect(page.getByText(/You are looking at sample data/)).toHaveCount(0);
    const after = await sampleStatus(request, token);
    expect(after).toMatchObject({ loaded: false, invoices: 0, statement_ids: [] });
    await page.goto('/settings');
    await expect(page.getByText('sample@invoicebox.example')).toHaveCount(0);
  } finally {
    await removeSample(request, token);
    if (before.session.activeUserId) {
      await request.post(`/api/v1/gmail/accounts/${before.session.activeUserId}/activate`, { headers: auth(token) });
    }
  }
});
