import { useQuery } from "@tanstack/react-query";
import { StatusBadge } from "@tidemark/ui";
import styles from "./BookingPanel.module.css";

type Booking = {
  id: number;
  container_no: string;
  truck_plate: string;
  slot_start: string;
  status: "reserved" | "arrived" | "cancelled" | "no_show" | "late";
};

const TONE = {
  reserved: "info",
  arrived: "success",
  cancelled: "neutral",
  no_show: "danger",
  late: "warning",
} as const;

async function fetchBookings(terminal: string, day: string): Promise<Booking[]> {
  const res = await fetch(`/api/v2/terminals/${terminal}/bookings?day=${day}`);
  if (!res.ok) throw new Error(`bookings ${res.status}`);
  return res.json();
}

export function BookingPanel({ terminal, day }: { terminal: string; day: string }) {
  const { data, isLoading } = useQuery({
    queryKey: ["bookings", terminal, day],
    queryFn: () => fetchBookings(terminal, day),
  });
  if (isLoading) return <div className={styles.empty}>Loading...</div>;
  const rows = [...(data ?? [])].sort((a, b) => a.slot_start.localeCompare(b.slot_start));
  return (
    <ul className={styles.panel}>
      {rows.map((b) => (
        <li key={b.id} className={styles.row} title={b.truck_plate}>
          <StatusBadge tone={TONE[b.status]}>{b.status}</StatusBadge>
          <span className={styles.container}>{b.container_no}</span>
          <span className={styles.plate} style={{ borderColor: "#ffb300" }}>
            {b.truck_plate}
          </span>
        </li>
      ))}
    </ul>
  );
}
