import { z } from "https://deno.land/x/zod@v3.23.8/mod.ts";

/** Durations are either seconds (number) or strings like "10s", "5m", "365d". */
const duration = z.union([
  z.number().int().nonnegative(),
  z.string().regex(/^\d+(ms|s|m|h|d)$/, "use a number of seconds or e.g. 30s, 5m, 1d"),
]);

export const RouteSchema = z.object({
  match: z.string().min(1),
  "cache-ttl": duration.optional(),
  "surrogate-keys": z.array(z.string().min(1)).default([]),
  bypass: z.boolean().default(false),
});

export const OriginSchema = z.object({
  host: z.string().min(1),
  "origin-timeout": duration.default("10s"),
  retries: z.number().int().min(0).max(1).default(1),
  "verify-tls": z.boolean().default(true),
});

export const SiteSchema = z.object({
  site: z.string().regex(/^[a-z0-9-]+$/, "site slugs are lowercase letters, digits and dashes"),
  provider: z.enum(["cloudflare", "bunny", "fastly"]),
  origin: OriginSchema,
  "html-ttl": duration.default(60),
  "asset-ttl": duration.default("365d"),
  routes: z.array(RouteSchema).default([]),
  headers: z.record(z.string()).default({}),
});

export type RawSiteConfig = z.infer<typeof SiteSchema>;

export class ConfigError extends Error {
  constructor(readonly issues: z.ZodIssue[]) {
    const first = issues[0];
    super(`${first.path.join(".") || "(root)"}: ${first.message}`);
    this.name = "ConfigError";
  }
}

export function validateConfig(input: unknown): RawSiteConfig {
  const parsed = SiteSchema.safeParse(input);
  if (!parsed.success) {
    throw new ConfigError(parsed.error.issues);
  }
  return parsed.data;
}
