/**
 * The version of the field-extraction rules. Raise it when a change to the rules should reach the invoices already
 * found: a full sync reads again every invoice that an older version read (invoices/fields-refresh.service.ts).
 * Kept apart from the extractor itself, so that reading it does not load PDF or OCR libraries.
 */
export const EXTRACTION_RULES_VERSION = 25;
