/** Names shared by the build-time generator (eval/sample-data.generator.ts) and the server that imports its output. */

/** The address the sample mailbox is shown as: an mbox account flagged sample. */
export const SAMPLE_ACCOUNT_EMAIL = 'sample@invoicebox.example';
export const SAMPLE_ACCOUNT_NAME = 'Sample mailbox';
export const SAMPLE_MBOX = 'sample.mbox';
export const SAMPLE_STATEMENT = 'sample-statement.camt053.xml';
export const SAMPLE_MANIFEST = 'manifest.json';
