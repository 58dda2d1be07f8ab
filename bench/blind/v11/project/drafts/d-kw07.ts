import { Hono } from "hono";
import { zValidator } from "@hono/zod-validator";
import { z } from "zod";
import { hashToken, newToken, sendMagicLink } from "./magic";
import { checkRate } from "./rate";
import { verifyPassword } from "./password";

export const auth = new Hono();

const LINKS_PER_HOUR = 10;

auth.post("/link", zValidator("json", z.object({ email: z.string().email() })), async (c) => {
  const { email } = c.req.valid("json");
  if (!(await checkRate(c.var.db, email, LINKS_PER_HOUR))) {
    return c.json({ error: { code: "too_many_requests", message: "Try again later" } }, 429);
  }
  const token = newToken();
  await c.var.db.insert(magicLinks).values({ email, tokenHash: hashToken(token), expiresAt: new Date(Date.now() + 15 * 60_000) });
  await sendMagicLink(email, token);
  return c.json({ ok: true });
});

auth.post("/password", zValidator("json", z.object({ email: z.string().email(), password: z.string().min(8) })), async (c) => {
  const { email, password } = c.req.valid("json");
  const member = await verifyPassword(c.var.db, email, password);
  if (!member) return c.json({ error: { code: "bad_credentials", message: "Wrong email or password" } }, 401);
  return c.json({ ok: true });
});
