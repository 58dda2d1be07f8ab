import { formatInTimeZone } from 'date-fns-tz';
import * as css from './WaitingRoomBoard.css';

type Entry = { appointmentId: number; ticket: string; startsAt: string; room: string };

export function WaitingRoomBoard({ entries, timeZone }: { entries: Entry[]; timeZone: string }) {
  return (
    <ul className={css.list}>
      {entries.map(e => (
        <li key={e.appointmentId} className={css.row}>
          <span className={css.ticket}>{e.ticket}</span>
          <span>{formatInTimeZone(new Date(e.startsAt), timeZone, 'HH:mm')}</span>
          <span className={css.room}>{e.room}</span>
        </li>
      ))}
    </ul>
  );
}
