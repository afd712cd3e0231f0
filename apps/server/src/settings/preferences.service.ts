import { DEFAULT_PREFERENCES, type Preferences } from '@invoicebox/core';
import { eq, sql } from 'drizzle-orm';
import type { Db } from '../db/client';
import { userPreferences } from './settings.tables';

/** A person's preferences: read by the mail ingest (attachments required), changed in Settings. */
export class PreferencesService {
  constructor(private readonly db: Db) {}

  async get(ownerId: string): Promise<Preferences> {
    const [row] = await this.db.select().from(userPreferences).where(eq(userPreferences.ownerId, ownerId));
    return row ? { attachments_required: row.attachmentsRequired } : { ...DEFAULT_PREFERENCES };
  }

  async update(ownerId: string, preferences: Preferences): Promise<Preferences> {
    const values = { ownerId, attachmentsRequired: preferences.attachments_required };
    await this.db
      .insert(userPreferences)
      .values(values)
      .onConflictDoUpdate({ target: userPreferences.ownerId, set: { ...values, updatedAt: sql`now()` } });
    return this.get(ownerId);
  }
}
