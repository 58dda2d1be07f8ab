// backend/src/routes/dayclose.ts
import { Hono } from 'hono';
import { getDb } from '../db/client';

export const dayclose = new Hono<{ Bindings: Env }>();

dayclose.post('/dayclose', async (c) => {
  const body = await c.req.json<{ shopId: string; date: string; totalGross: number; vatTotal: number }>();
  const db = getDb(c.env);
  await db.insertInto('day_close')
    .values({ shop_id: body.shopId, date: body.date, total_gross: body.totalGross, vat_total: body.vatTotal })
    .onConflict((oc) => oc.columns(['shop_id', 'date']).doUpdateSet({ total_gross: body.totalGross }))
    .execute();
  const vatRate = 0.2;
  return c.json({ ok: true, net: body.totalGross / (1 + vatRate) });
});
