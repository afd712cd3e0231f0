import AxeBuilder from '@axe-core/playwright';
import { expect, type Page, test } from '@playwright/test';
import { signInAsOwner } from './owner';

// Every screen of spec §2 at a phone, a tablet, a laptop and a desktop width: axe-core finds no serious or critical
// violation of WCAG 2.1 A/AA. Dialogs and tabs are opened where a screen has them, so their markup is checked too.
const WIDTHS = [390, 768, 1024, 1440];
const SIGNED_IN = ['/dashboard', '/invoice-analysis', '/bank-analysis', '/history', '/forwarding', '/settings'];

async function seriousViolations(page: Page) {
  const result = await new AxeBuilder({ page }).withTags(['wcag2a', 'wcag2aa', 'wcag21a', 'wcag21aa']).analyze();
  return result.violations
    .filter((v) => v.impact === 'serious' || v.impact === 'critical')
    .map((v) => ({
      id: v.id,
      impact: v.impact,
      help: v.help,
      targets: v.nodes.slice(0, 5).map((n) => `${n.target.join(' ')} ${process.env.A11Y_HTML ? n.html : ''}`.trim()),
    }));
}

/** Waits until the screen has drawn its content (no loading text, main landmark present). */
async function settled(page: Page) {
  await expect(page.getByRole('main')).toBeVisible();
  await page.waitForLoadState('networkidle');
  await expect(page.getByText(/^Loading/)).toHaveCount(0, { timeout: 15_000 });
}

for (const width of WIDTHS) {
  test(`signed-in screens have no serious accessibility violations at ${width} px`, async ({ page, request }) => {
    await page.setViewportSize({ width, height: width < 768 ? 844 : 900 });
    await signInAsOwner(page, request);
    const found: Record<string, unknown> = {};
    for (const path of SIGNED_IN) {
      await page.goto(path);
      await settled(page);
      const violations = await seriousViolations(page);
      if (violations.length > 0) found[path] = violations;
    }
    // The Settings and History second tabs.
    await page.goto('/settings');
    await settled(page);
    await page.getByRole('tab', { name: 'Data & Privacy' }).click();
    const privacy = await seriousViolations(page);
    if (privacy.length > 0) found['/settings (Data & Privacy)'] = privacy;
    expect(found).toEqual({});
  });
}

test('the landing page and the not-found page have no serious accessibility violations', async ({ page }) => {
  const found: Record<string, unknown> = {};
  for (const width of WIDTHS) {
    await page.setViewportSize({ width, height: 900 });
    for (const path of ['/', '/no-such-page']) {
      await page.goto(path);
      await page.waitForLoadState('networkidle');
      const violations = await seriousViolations(page);
      if (violations.length > 0) found[`${path} @${width}`] = violations;
    }
  }
  expect(found).toEqual({});
});
