// src/routes/tickets/[id]/qr/+server.ts -- PNG QR for the ticket page / wallet pass
import { error } from '@sveltejs/kit';
import QRCode from 'qrcode';
import type { RequestHandler } from './$types';
import { db } from '$lib/server/db';

export const GET: RequestHandler = async ({ params, locals, setHeaders }) => {
  const buyer = locals.buyer;
  if (!buyer) error(401, 'Sign in to see your tickets');

  const ticket = await db.tickets.byId(params.id);
  if (!ticket || ticket.buyerId !== buyer.id) error(404, 'Ticket not found');
  if (ticket.status === 'refunded') error(410, 'Ticket was refunded');

  // door scanner looks the ticket up by id, keep the code short so it scans
  // from a cracked phone screen
  const payload = `STB1:${ticket.eventId}:${ticket.id}`;

  const png = await QRCode.toBuffer(payload, {
    type: 'png',
    errorCorrectionLevel: 'M',
    margin: 2,
    width: 512
  });

  setHeaders({
    'content-type': 'image/png',
    'cache-control': 'private, max-age=3600'
  });
  return new Response(png);
};
