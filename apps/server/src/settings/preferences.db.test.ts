import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { bearer, buildAuthTestApp, signUpThroughApi } from '../../test/auth-app';
import { useTestDatabase } from '../../test/db';
import { buildMail } from '../../test/mail/mail-builder';
import { AccountsRepository } from '../accounts/accounts.repository';
import { AccountsService } from '../accounts/accounts.service';
import { LocalBlobStore } from '../invoices/blob.store';
import { IngestService } from '../invoices/ingest.service';
import { preferencesRoutes } from './preferences.routes';
import { PreferencesService } from './preferences.service';

const t = useTestDatabase();

describe('preferences: attachments required', () => {
  let harness: Awaited<ReturnType<typeof buildAuthTestApp>>;
  let preferences: PreferencesService;
  let token = '';
  let ownerId = '';

  beforeAll(async () => {
    const { db } = t().database;
    preferences = new PreferencesService(db);
    harness = await buildAuthTestApp(db, { routes: [preferencesRoutes(preferences)] });
    const signup = await signUpThroughApi(harness.app, 'me@example.com');
    token = signup.token;
    ownerId = signup.userId;
  });
  afterAll(() => harness.app.close());

  it('defaults to on (spec §5), is changed by PUT, and refuses a bad payload', async () => {
    const read = () => harness.app.inject({ url: '/api/v1/settings/preferences', headers: bearer(token) });
    expect((await read()).json()).toEqual({ attachments_required: true });
    const bad = await harness.app.inject({
      method: 'PUT',
      url: '/api/v1/settings/preferences',
      headers: bearer(token),
      payload: { attachments_required: 'no' },
    });
    expect(bad.statusCode).toBe(400);
    const put = await harness.app.inject({
      method: 'PUT',
      url: '/api/v1/settings/preferences',
      headers: bearer(token),
      payload: { attachments_required: false },
    });
    expect(put.json()).toEqual({ attachments_required: false });
    expect((await read()).json()).toEqual({ attachments_required: false });
  });

  it('decides whether an invoice email without a document is an invoice at the next sync or import', async () => {
    const { db } = t().database;
    const accounts = new AccountsService(new AccountsRepository(db));
    const account = await accounts.connect(ownerId, { provider: 'mbox', email: 'me@example.com' });
    const ingest = new IngestService(db, new LocalBlobStore('/nonexistent'), { extract: async () => null }, (id) =>
      preferences.get(id),
    );
    const bodyOnly = (n: number) => ({
      ok: true as const,
      origin: `body-only-${n}`,
      source: buildMail({
        from: 'Utility <bills@utility.example>',
        subject: `Your invoice ${n} is ready`,
        messageId: `<body-only-${n}@example.com>`,
      }),
    });
    async function* one(n: number) {
      yield bodyOnly(n);
    }
    await preferences.update(ownerId, { attachments_required: true });
    expect(await ingest.ingest(ownerId, account.userId, one(1))).toMatchObject({ added: 1, invoices: 0 });
    await preferences.update(ownerId, { attachments_required: false });
    expect(await ingest.ingest(ownerId, account.userId, one(2))).toMatchObject({ added: 1, invoices: 1 });
  });
});
