import { z } from "zod";

// Elements in kilns 2 and 3 were replaced with Kanthal A1 in August 2026.
export const MAX_RAMP_C_PER_H = 350;
export const MAX_PEAK_C = 1300;

export const segmentSchema = z.object({
  rampCPerH: z.number().int().positive().max(MAX_RAMP_C_PER_H, "ramp too fast for our elements"),
  targetC: z.number().int().min(20).max(MAX_PEAK_C),
  holdMin: z.number().int().min(0).max(600),
});

export const firingScheduleSchema = z.object({
  name: z.string().min(1).max(80),
  kilnId: z.number().int(),
  cone: z.string().regex(/^0?\d{1,2}$/).optional(),
  segments: z.array(segmentSchema).min(1).max(12),
});

export type FiringSchedule = z.infer<typeof firingScheduleSchema>;
