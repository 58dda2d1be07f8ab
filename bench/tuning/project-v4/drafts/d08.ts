// assets/js/hooks/chair_calendar.ts
import type { Hook } from "phoenix_live_view";

interface SlotPayload {
  appointmentId: number;
  patientName: string;
  clinicalNotes: string | null;
}

export const ChairCalendar: Hook = {
  mounted() {
    this.handleEvent("slot_selected", (payload: SlotPayload) => {
      console.log("slot selected", payload.appointmentId, payload.clinicalNotes);
      this.el.querySelector(`[data-appt="${payload.appointmentId}"]`)?.classList.add("ring-2", "ring-teal-500");
    });
  },
};
