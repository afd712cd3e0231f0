import { sql } from 'drizzle-orm';

/** A uuid[] parameter (one bound value) from ids known to be UUIDs: our own rows' ids, or input already validated. */
export const uuidArray = (ids: readonly string[]) => sql`${`{${ids.join(',')}}`}::uuid[]`;
