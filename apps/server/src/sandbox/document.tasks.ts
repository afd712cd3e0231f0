/**
 * The tasks a document-sandbox child runs, by name: each reads untrusted bytes. Modules load on the first task that
 * needs them, so a child pays only for what it runs.
 */
export const documentTasks = {
  extract: async (input: import('../extraction/extraction.tasks').ExtractTaskInput) =>
    (await import('../extraction/extraction.tasks')).extractTask(input),
  statement: async (input: import('../bank/statement.tasks').StatementTaskInput) =>
    (await import('../bank/statement.tasks')).statementTask(input),
  /**
   * Loads the invoice readers before the first document arrives (a one-off `invoicebox extract` starts its child
   * while it still reads its own modules and the file): pdf.js starts in its worker thread meanwhile. No input.
   */
  warm: async () => {
    (await import('../extraction/pdf/pdf.isolate')).warmPdfWorker();
    await import('../extraction/extraction.service');
    return null;
  },
};
