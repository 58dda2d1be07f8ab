// src/server/routers/episode.ts (excerpt)
import { z } from 'zod';
import { eq } from 'drizzle-orm';
import { router, creatorProcedure } from '../trpc';
import { episodes } from '../schema';

export const episodeRouter = router({
  schedule: creatorProcedure
    .input(z.object({ id: z.string().uuid(), publishAt: z.coerce.date() }))
    .mutation(async ({ ctx, input }) => {
      await ctx.db.update(episodes).set({ scheduledAt: input.publishAt }).where(eq(episodes.id, input.id));
      return { ok: true };
    }),
});
