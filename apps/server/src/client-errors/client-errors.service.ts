import type { ClientErrorReport } from '@invoicebox/core';
import { desc, sql } from 'drizzle-orm';
import type { Db } from '../db/client';
import { boundedText, storableText } from '../db/storable-text';
import { clientErrorReports } from './client-errors.tables';

/** The newest reports kept; older ones give way, so a browser stuck in an error loop cannot fill the disk. */
export const CLIENT_ERROR_REPORTS_KEPT = 1000;

/** Stores the web app's unhandled errors for the operator (spec §8 error reporting). */
export class ClientErrorsService {
  constructor(
    private readonly db: Db,
    private readonly kept = CLIENT_ERROR_REPORTS_KEPT,
  ) {}

  async store(reports: ClientErrorReport[], from: { ownerId: string | null; clientAddress: string }): Promise<number> {
    if (reports.length === 0) return 0;
    await this.db.transaction(async (tx) => {
      await tx.insert(clientErrorReports).values(
        reports.map((report) => ({
          ownerId: from.ownerId,
          clientAddress: storableText(from.clientAddress),
          source: report.source,
          level: report.level ?? null,
          message: boundedText(report.message, 2000),
          stack: report.stack === undefined ? null : boundedText(report.stack, 8000),
          url: boundedText(report.url, 2000),
          occurredAt: new Date(report.at),
        })),
      );
      // The cap: everything older than the newest `kept` rows goes.
      await tx.execute(sql`
        delete from ${clientErrorReports}
        where ${clientErrorReports.id} in (
          select ${clientErrorReports.id} from ${clientErrorReports}
          order by ${clientErrorReports.receivedAt} desc, ${clientErrorReports.id} desc
          offset ${this.kept}
        )`);
    });
    return reports.length;
  }

  /** The newest reports first (for the operator and the tests). */
  async latest(limit = 100) {
    return this.db.select().from(clientErrorReports).orderBy(desc(clientErrorReports.receivedAt)).limit(limit);
  }
}
