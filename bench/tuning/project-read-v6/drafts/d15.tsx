import { useEffect, useState } from "react";
import dayjs from "dayjs";
import utc from "dayjs/plugin/utc";
import timezone from "dayjs/plugin/timezone";

dayjs.extend(utc);
dayjs.extend(timezone);

type Appointment = { id: string; startsAt: string; practitioner: string };

export function NextAppointmentCard({ patientId, clinicTz }: { patientId: string; clinicTz: string }) {
  const [appt, setAppt] = useState<Appointment | null>(null);

  useEffect(() => {
    fetch(`https://fhir-gateway.clinicslot.internal/Appointment?patient=${patientId}&_sort=date&_count=1`)
      .then((r) => r.json())
      .then((bundle) => setAppt(bundle.entry?.[0]?.resource ?? null));
  }, [patientId]);

  if (!appt) return <div className="card card--empty">No upcoming appointments</div>;

  return (
    <div className="card">
      <h3>Next appointment</h3>
      <p>{dayjs.utc(appt.startsAt).tz(clinicTz).format("dddd D MMMM, HH:mm")}</p>
      <p>{appt.practitioner}</p>
    </div>
  );
}
