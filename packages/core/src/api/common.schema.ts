import { z } from 'zod';

/** Every non-2xx body of the API: `{ error }`, with a stable machine code beside it. */
export const ApiErrorSchema = z.object({
  error: z.string(),
  code: z.string().optional(),
});
export type ApiError = z.infer<typeof ApiErrorSchema>;

/** Instants cross the API as ISO-8601 strings with a Z. */
export const IsoInstant = z.string().datetime({ offset: true });
