// src/lib/server/holds.ts
import type { PoolClient } from 'pg';
import { pool } from './db';

/** How long a picked seat stays reserved for the buyer, in seconds. */
export const HOLD_TTL_SECONDS = 600;

export type SeatHold = {
  id: string;
  eventId: string;
  seatId: string;
  sessionId: string;
  expiresAt: Date;
};

/**
 * Inserts one row per seat. A seat that already has a live hold (or a ticket)
 * is rejected by the partial unique index on seat_holds, so no lock is held
 * beyond this single statement.
 */
export async function holdSeats(eventId: string, seatIds: string[], sessionId: string): Promise<SeatHold[] | null> {
  const client: PoolClient = await pool.connect();
  try {
    const { rows } = await client.query(
      `INSERT INTO seat_holds (event_id, seat_id, session_id, expires_at)
       SELECT $1, s, $3, now() + make_interval(secs => $4)
         FROM unnest($2::text[]) AS s
       ON CONFLICT DO NOTHING
       RETURNING id, event_id, seat_id, session_id, expires_at`,
      [eventId, seatIds, sessionId, HOLD_TTL_SECONDS]
    );
    if (rows.length !== seatIds.length) {
      await client.query('DELETE FROM seat_holds WHERE id = ANY($1::uuid[])', [rows.map((r) => r.id)]);
      return null;
    }
    return rows.map((r) => ({
      id: r.id,
      eventId: r.event_id,
      seatId: r.seat_id,
      sessionId: r.session_id,
      expiresAt: r.expires_at
    }));
  } finally {
    client.release();
  }
}

export async function releaseExpired(): Promise<number> {
  const { rowCount } = await pool.query('DELETE FROM seat_holds WHERE expires_at < now()');
  return rowCount ?? 0;
}
