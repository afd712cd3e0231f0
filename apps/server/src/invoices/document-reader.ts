import { and, eq, sql } from 'drizzle-orm';
import type { Db } from '../db/client';
import { storableJson, storableText } from '../db/storable-text';
import type {
  ExtractionLimits,
  ExtractionResult,
  ModelEndpointOptions,
  PartyHints,
} from '../extraction/extraction.types';
import { EXTRACTION_RULES_VERSION } from '../extraction/version';
import {
  DocumentUnreadableError,
  type ExtractedInvoiceFields,
  type FieldExtractInput,
  type FieldExtractor,
} from '../mail/field-extractor';
import { documentReadFailures } from './invoices.tables';

/** The failures that end a sandbox process: such a document is not given to a reader again by the same rules. */
const SANDBOX_FAILURES = new Set(['document_crashed', 'document_out_of_memory', 'document_timeout']);

type Extract = (
  input: { bytes: Uint8Array; filename: string; mimeType?: string },
  options: ReadOptions & { hints?: PartyHints },
) => Promise<ExtractionResult>;

/** How documents are read: the configured limits and, when the operator set one, the model endpoint. */
export interface ReadOptions {
  limits?: Partial<ExtractionLimits>;
  model?: ModelEndpointOptions;
}

/**
 * The invoice store's field extractor: each file is read in the document sandbox with the configured limits. A file
 * that cannot be read is reported as DocumentUnreadableError (stored on its attachment and invoice by the caller);
 * one that ended its sandbox process is also remembered for its owner, so that the retry of a job, or the next sync,
 * skips it instead of feeding it to a reader again (a job never crash-loops on one document).
 */
export class DocumentReader implements FieldExtractor {
  constructor(
    private readonly db: Db,
    private readonly options: ReadOptions,
    /** The sandboxed extraction; loaded on first use so that `start` does not pay for it. */
    private readonly extractDocument: Extract = async (input, options) =>
      (await import('../extraction/index')).extractInvoiceFields(input, options),
    private readonly rulesVersion = EXTRACTION_RULES_VERSION,
  ) {}

  async extract(input: FieldExtractInput): Promise<ExtractedInvoiceFields | null> {
    const { ownerId, sha256 } = input;
    if (ownerId && sha256) {
      const [known] = await this.db
        .select({ code: documentReadFailures.code, message: documentReadFailures.message })
        .from(documentReadFailures)
        .where(
          and(
            eq(documentReadFailures.ownerId, ownerId),
            eq(documentReadFailures.sha256, sha256),
            eq(documentReadFailures.rulesVersion, this.rulesVersion),
          ),
        );
      if (known) throw new DocumentUnreadableError(known.code, storableText(known.message));
    }
    const result = await this.extractDocument(
      { bytes: input.bytes, filename: input.filename, ...(input.mimeType ? { mimeType: input.mimeType } : {}) },
      input.hints ? { ...this.options, hints: input.hints } : this.options,
    );
    // Fields read from a document are as untrusted as the mail that carried it.
    const problem = storableJson(result.errors[0]);
    if (!problem) return storableJson(result);
    if (ownerId && sha256 && SANDBOX_FAILURES.has(problem.code)) {
      await this.db
        .insert(documentReadFailures)
        .values({ ownerId, sha256, code: problem.code, message: problem.message, rulesVersion: this.rulesVersion })
        .onConflictDoUpdate({
          target: [documentReadFailures.ownerId, documentReadFailures.sha256],
          set: { code: problem.code, message: problem.message, rulesVersion: this.rulesVersion, createdAt: sql`now()` },
        });
    }
    throw new DocumentUnreadableError(problem.code, problem.message);
  }
}
