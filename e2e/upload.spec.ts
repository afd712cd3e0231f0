import fs from 'node:fs/promises';
import { fileURLToPath } from 'node:url';
import { expect, test } from '@playwright/test';
import { signInAsOwner } from './owner';
import { shot } from './screenshot-path';

const pdf = fileURLToPath(new URL('../../shared/datasets/invoices-pdf/AzureInterior.pdf', import.meta.url));
/** A 1×1 PNG: a photo the camera could have taken, read by OCR. */
const tinyPng = Buffer.from(
  'iVBORw0KGgoAAAANSUhEUgAAAAEAAAABCAQAAAC1HAwCAAAAC0lEQVR42mNkYAAAAAYAAjCB0C8AAAAASUVORK5CYII=',
  'base64',
);

test.describe('adding documents on Invoice Analysis', () => {
  test('files chosen and dropped at 1280 px: a line per file with its result', async ({ page, request }) => {
    test.setTimeout(90_000);
    await signInAsOwner(page, request);
    await page.setViewportSize({ width: 1280, height: 800 });
    await page.goto('/invoice-analysis');
    const card = page.getByRole('region', { name: 'Add documents' });
    await expect(card).toBeVisible();
    await expect(card.getByRole('button', { name: 'Choose files', exact: true })).toBeVisible();
    // The camera button is for phones.
    await expect(card.getByRole('button', { name: 'Take a photo', exact: true })).toBeHidden();

    await page.getByTestId('upload-input').setInputFiles([
      { name: 'AzureInterior.pdf', mimeType: 'application/pdf', buffer: await fs.readFile(pdf) },
      { name: 'notes.txt', mimeType: 'text/plain', buffer: Buffer.from('just notes, not a document') },
    ]);
    const lines = card.getByRole('list', { name: 'Added files' }).getByRole('listitem');
    await expect(lines).toHaveCount(2);
    const pdfLine = lines.filter({ hasText: 'AzureInterior.pdf' });
    await expect(pdfLine).toHaveAttribute('data-status', /^(added|duplicate)$/, { timeout: 60_000 });
    const notes = lines.filter({ hasText: 'notes.txt' });
    await expect(notes).toHaveAttribute('data-status', 'failed');
    await expect(notes).toContainText('Refused: This is not a document');

    // Dropped on the zone, as a file dragged from the desktop.
    const bytes = [...(await fs.readFile(pdf))];
    const transfer = await page.evaluateHandle((data) => {
      const dt = new DataTransfer();
      dt.items.add(new File([new Uint8Array(data)], 'dropped copy.pdf', { type: 'application/pdf' }));
      return dt;
    }, bytes);
    await page.getByTestId('upload-drop-zone').dispatchEvent('drop', { dataTransfer: transfer });
    const dropped = lines.filter({ hasText: 'dropped copy.pdf' });
    await expect(dropped).toHaveAttribute('data-status', 'duplicate', { timeout: 60_000 });
    await expect(dropped).toContainText('Already there');
    await page.screenshot({ path: shot('upload-drop-zone'), fullPage: false });
  });

  test('at 390 px the camera is offered, and a photo is added', async ({ page, request }) => {
    test.setTimeout(90_000);
    await signInAsOwner(page, request);
    await page.setViewportSize({ width: 390, height: 844 });
    await page.goto('/invoice-analysis');
    const card = page.getByRole('region', { name: 'Add documents' });
    await expect(card.getByRole('button', { name: 'Take a photo', exact: true })).toBeVisible();
    const cameraInput = page.getByTestId('upload-camera');
    await expect(cameraInput).toHaveAttribute('capture', 'environment');
    await expect(cameraInput).toHaveAttribute('accept', 'image/*');
    await expect(page.getByTestId('upload-input')).toHaveAttribute('accept', /image\/\*,application\/pdf/);
    // The card fits the phone's width.
    const box = await card.boundingBox();
    expect(box!.width).toBeLessThanOrEqual(390);

    await cameraInput.setInputFiles({ name: 'photo.png', mimeType: 'image/png', buffer: tinyPng });
    await page.getByTestId('upload-input').setInputFiles(pdf);
    const lines = card.getByRole('list', { name: 'Added files' }).getByRole('listitem');
    await expect(lines.filter({ hasText: 'AzureInterior.pdf' })).toHaveAttribute('data-status', /^(added|duplicate)$/, {
      timeout: 60_000,
    });
    await expect(lines.filter({ hasText: 'photo.png' })).toHaveAttribute(
      'data-status',
      /^(added|unreadable|duplicate)$/,
      { timeout: 60_000 },
    );
    await card.scrollIntoViewIfNeeded();
    await page.screenshot({ path: shot('upload-camera-phone'), fullPage: false });
  });
});
