import { chmodSync, mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { defineConfig, devices } from '@playwright/test';

// The real server (built by `npm run build`) serves the SPA and the API on one port, with a fresh data folder per
// run. Kept in the environment so the test workers, which re-read this file, agree with the runner.
const port = Number(process.env.E2E_PORT ?? 4318);
if (!process.env.E2E_DATA_DIR) {
  process.env.E2E_DATA_DIR = mkdtempSync(path.join(tmpdir(), 'invoicebox-e2e-'));
  // mkdtemp makes it 0700; the embedded PostgreSQL runs as its own user when we are root and must enter it.
  chmodSync(process.env.E2E_DATA_DIR, 0o755);
  const dataDir = process.env.E2E_DATA_DIR;
  // The runner process made it, so the runner removes it; by exit the web server has been shut down.
  process.once('exit', () => rmSync(dataDir, { recursive: true, force: true }));
}
const baseURL = `http://127.0.0.1:${port}`;
// The SMTP relay invoice forwarding sends through: e2e/forwarding.spec.ts listens there while it runs.
process.env.E2E_SMTP_PORT ??= String(port + 2);
// A real OpenID Connect provider beside the app, for the sign-in through the server.
const oidcPort = port + 1;
const oidcIssuer = `http://127.0.0.1:${oidcPort}`;

export default defineConfig({
  testDir: 'e2e',
  workers: 1,
  fullyParallel: false,
  forbidOnly: !!process.env.CI,
  retries: 0,
  timeout: 30_000,
  reporter: process.env.CI ? [['list'], ['html', { open: 'never' }]] : 'list',
  // The auth specs run first on the fresh server: the first visit creates the owner the other specs sign in as.
  projects: [
    { name: 'auth', testMatch: /auth\.spec\.ts/ },
    { name: 'app', testMatch: /(?<!auth|a11y)\.spec\.ts$/, dependencies: ['auth'] },
    // Last, so the screens it checks hold what the other specs made (invoices, statements, mailboxes, jobs).
    // axe-core reads every screen at four widths: minutes, not seconds, on a busy two-core machine.
    { name: 'a11y', testMatch: /a11y\.spec\.ts$/, dependencies: ['app'], timeout: 180_000 },
  ],
  use: {
    ...devices['Desktop Chrome'],
    baseURL,
    viewport: { width: 1280, height: 800 },
    trace: 'retain-on-failure',
    launchOptions: {
      executablePath: '/usr/bin/chromium',
      args: [
        '--no-sandbox',
        '--disable-gpu',
        '--disable-dev-shm-usage',
        '--disable-background-networking',
        '--disable-component-update',
        '--disable-sync',
        '--no-first-run',
      ],
    },
  },
  webServer: [
    {
      command: 'node --import tsx apps/server/test/oidc-provider.server.ts',
      url: `${oidcIssuer}/.well-known/openid-configuration`,
      reuseExistingServer: false,
      timeout: 60_000,
      stdout: 'pipe',
      stderr: 'pipe',
      env: {
        OIDC_TEST_PORT: String(oidcPort),
        OIDC_TEST_REDIRECT_URI: `${baseURL}/api/v1/auth/oidc/oidc/callback`,
      },
    },
    {
      command: 'node apps/server/bin/invoicebox.js start',
      url: `${baseURL}/api/v1/health`,
      reuseExistingServer: false,
      // SIGTERM lets the server stop its embedded PostgreSQL; the default SIGKILL would leave it running.
      gracefulShutdown: { signal: 'SIGTERM', timeout: 20_000 },
      timeout: 180_000,
      stdout: 'pipe',
      stderr: 'pipe',
      env: {
        PORT: String(port),
        HOST: '127.0.0.1',
        INVOICEBOX_DATA_DIR: process.env.E2E_DATA_DIR,
        LOG_LEVEL: 'warn',
        // Every test signs in; the default 20 sign-ins per minute and address would throttle the run.
        AUTH_RATE_LIMIT_PER_MINUTE: '500',
        // The tests' Dovecot is on loopback. Without DATABASE_URL and with sign-up closed this is the default; said
        // here so that the run does not depend on it.
        ALLOW_PRIVATE_NETWORK_TARGETS: 'true',
        PUBLIC_URL: baseURL,
        OIDC_ISSUER: oidcIssuer,
        OIDC_CLIENT_ID: 'invoicebox-test',
        OIDC_CLIENT_SECRET: 'test-client-secret-value',
        OIDC_NAME: 'Test ID',
        // The invoice address's SMTP listener (e2e/inbound.spec.ts sends to it over loopback).
        SMTP_INBOUND_PORT: String(port + 3),
        SMTP_INBOUND_DOMAIN: 'in.invoicebox.test',
        SMTP_HOST: '127.0.0.1',
        SMTP_PORT: process.env.E2E_SMTP_PORT,
        SMTP_TLS: 'none',
        SMTP_USER: 'fwdsender',
        SMTP_PASSWORD: 'pw',
        SMTP_FROM: 'fwdsender@mail.test',
      },
    },
  ],
});
