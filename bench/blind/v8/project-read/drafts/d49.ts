// src/routes/events/[id]/checkout/+page.server.ts
import { error, fail, redirect } from '@sveltejs/kit';
import * as Sentry from '@sentry/sveltekit';
import { z } from 'zod';
import type { Actions, PageServerLoad } from './$types';
import { db } from '$lib/server/db';
import { createPaymentIntent } from '$lib/server/psp';

const checkoutSchema = z.object({
  seat: z.array(z.string().uuid()).min(1, 'Pick at least one seat').max(6, 'You can buy at most 6 tickets for this event')
});

export const load: PageServerLoad = async ({ params, locals }) => {
  const event = await db.events.byId(params.id);
  if (!event) error(404, 'Event not found');
  return { event, buyer: locals.buyer ?? null };
};

export const actions: Actions = {
  default: async ({ request, params, locals }) => {
    const form = await request.formData();
    const parsed = checkoutSchema.safeParse({ seat: form.getAll('seat').map(String) });
    if (!parsed.success) return fail(400, { message: parsed.error.issues[0].message });
    const seatIds = parsed.data.seat;

    const buyer = locals.buyer;
    if (!buyer) redirect(303, `/login?next=/events/${params.id}/checkout`);
    Sentry.setUser({ id: buyer.id, email: buyer.email });

    // Serialise checkouts for the same event so two buyers can't grab the
    // same seats; released automatically when this transaction ends.
    return db.tx(async (tx) => {
      await tx.query('SELECT pg_advisory_xact_lock(hashtext($1))', [params.id]);

      const taken = await tx.query(
        'SELECT seat_id FROM tickets WHERE event_id = $1 AND seat_id = ANY($2::text[])',
        [params.id, seatIds]
      );
      if (taken.rowCount) return fail(409, { message: 'Some of those seats were just sold' });

      const order = await tx.orders.create({ eventId: params.id, buyerId: buyer.id, seatIds });
      // wait for the PSP inside the lock so the seats can't be double-sold
      const intent = await createPaymentIntent(order);
      await tx.orders.attachPayment(order.id, intent.id);

      return { orderId: order.id, paymentUrl: intent.redirectUrl };
    });
  }
};
