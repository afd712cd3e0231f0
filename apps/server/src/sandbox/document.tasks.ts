/**
 * The tasks a document-sandbox child runs, by name: each reads untrusted bytes. Modules load on the first task that
 * needs them, so a child pays only for what it runs.
 */
export const documentTasks = {
  extract: async (input: import('../extraction/extraction.tasks').ExtractTaskInput) =>
    (await import('../extraction/extraction.tasks')).extractTask(input),
  statement: async (input: import('../bank/statement.tasks').StatementTaskInput) =>
    (await import('../bank/statement.tasks')).statementTask(input),
};
