/**
 * The heavy parts of the server (runtime, database, HTTP) load when a command runs, not when `invoicebox` starts:
 * `--help` and `extract` need none of them, and loading them all cost seconds (about 2,000 files of dependencies).
 */
export async function loadRuntime() {
  const [{ createRuntime }, { createLogger }] = await Promise.all([import('../runtime'), import('../logger')]);
  return { createRuntime, createLogger };
}

export async function loadDatabase() {
  const [{ openDatabase }, { runMigrations }] = await Promise.all([import('../db/client'), import('../db/migrate')]);
  return { openDatabase, runMigrations };
}
