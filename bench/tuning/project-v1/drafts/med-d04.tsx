import dayjs from 'dayjs';
import relativeTime from 'dayjs/plugin/relativeTime';
import styles from './PatientCard.module.css';

dayjs.extend(relativeTime);

export function UpcomingList({ items }: { items: { id: number; startsAt: string }[] }) {
  return (
    <ul className={styles.upcoming}>
      {items.map(i => <li key={i.id}>{dayjs(i.startsAt).fromNow()}</li>)}
    </ul>
  );
}
