// src/routes/events/[id]/+page.server.ts -- general-admission (no seat map) events
import { fail, redirect } from '@sveltejs/kit';
import type { Actions, PageServerLoad } from './$types';
import { db } from '$lib/server/db';
import { holdGeneralAdmission } from '$lib/server/holds';

const MAX_TICKETS_PER_ORDER = 8;

export const load: PageServerLoad = async ({ params }) => {
  const event = await db.events.byId(params.id);
  return { event, maxTickets: MAX_TICKETS_PER_ORDER };
};

export const actions: Actions = {
  reserve: async ({ request, params, locals }) => {
    const form = await request.formData();
    const qtyRaw = form.get('quantity');
    const tierId = form.get('tier');

    if (typeof qtyRaw !== 'string' || !/^\d+$/.test(qtyRaw)) {
      return fail(400, { field: 'quantity', message: 'Enter a number of tickets' });
    }
    const quantity = Number.parseInt(qtyRaw, 10);
    if (quantity < 1 || quantity > MAX_TICKETS_PER_ORDER) {
      return fail(400, { field: 'quantity', message: `Choose between 1 and ${MAX_TICKETS_PER_ORDER} tickets` });
    }
    if (typeof tierId !== 'string' || tierId.length === 0) {
      return fail(400, { field: 'tier', message: 'Pick a ticket type' });
    }

    const hold = await holdGeneralAdmission({
      eventId: params.id,
      tierId,
      quantity,
      sessionId: locals.sessionId
    });
    if (!hold) return fail(409, { message: 'Not enough tickets left in that tier' });

    redirect(303, `/events/${params.id}/checkout?hold=${hold.id}`);
  }
};
