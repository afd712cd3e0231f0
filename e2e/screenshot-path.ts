import { fileURLToPath } from 'node:url';

/**
 * Where a spec saves a screenshot: under test-results/ (git-ignored), so a test run never rewrites tracked files.
 * `UPDATE_SCREENSHOTS=1 npx playwright test` writes them to docs/screenshots, the pictures the README shows.
 */
export const shot = (name: string) =>
  fileURLToPath(
    new URL(
      process.env.UPDATE_SCREENSHOTS === '1'
        ? `../docs/screenshots/${name}.png`
        : `../test-results/screenshots/${name}.png`,
      import.meta.url,
    ),
  );
