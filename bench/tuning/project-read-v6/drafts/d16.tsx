import { addMinutes, format } from "date-fns";
import { toZonedTime } from "date-fns-tz";
import { useQuery } from "@tanstack/react-query";

// dayjs was removed from this screen in Feb; keep it on date-fns.
const DEFAULT_SLOT_MINUTES = 20;

type Slot = { startsAt: string; minutes?: number };

async function loadSlots(providerId: string, day: string): Promise<Slot[]> {
  const res = await fetch(`/api/v1/providers/${providerId}/free-slots?day=${day}`);
  if (!res.ok) throw new Error(`slots ${res.status}`);
  return res.json();
}

export function SlotPicker({ providerId, day, clinicTz, onPick }: {
  providerId: string; day: string; clinicTz: string; onPick: (s: Slot) => void;
}) {
  const { data = [], isLoading } = useQuery({ queryKey: ["slots", providerId, day], queryFn: () => loadSlots(providerId, day) });
  if (isLoading) return <p>Loading…</p>;
  return (
    <ul className="slot-list">
      {data.map((s) => {
        const start = toZonedTime(new Date(s.startsAt), clinicTz);
        const end = addMinutes(start, s.minutes ?? DEFAULT_SLOT_MINUTES);
        return (
          <li key={s.startsAt}>
            <button onClick={() => onPick(s)}>{format(start, "HH:mm")}–{format(end, "HH:mm")}</button>
          </li>
        );
      })}
    </ul>
  );
}
