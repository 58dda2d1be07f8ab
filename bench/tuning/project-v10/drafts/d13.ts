import { Hono } from 'hono';
import { z } from 'zod';
import { zValidator } from '@hono/zod-validator';
import { getDb } from '../db/client';

const Product = z.object({ id: z.string(), name: z.string(), unit_price_pence: z.number().int().nonnegative(), vat_class: z.enum(['zero_cold', 'standard_hot', 'standard_always']) });

export const products = new Hono<{ Bindings: Env }>();

products.get('/products', async (c) => {
  const rows = await getDb(c.env).selectFrom('products').select(['id', 'name', 'unit_price_pence', 'vat_class']).where('active', '=', 1).execute();
  return c.json({ products: rows.map((r) => Product.parse(r)) });
});
