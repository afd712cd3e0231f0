import { z } from 'zod';

/** The signed-in person. Until sign-in lands (issue 4) the server answers with the single local owner. */
export const MeResponseSchema = z.object({
  user: z.object({ id: z.string(), email: z.string(), display_name: z.string() }),
});
export type MeResponse = z.infer<typeof MeResponseSchema>;
