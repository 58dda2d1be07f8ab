import { onSchedule } from "firebase-functions/v2/scheduler";
import { getFirestore } from "firebase-admin/firestore";
import { getMessaging } from "firebase-admin/messaging";
import { logger } from "firebase-functions";

// Region comes from setGlobalOptions() in index.ts.
export const sendDeliveryReminders = onSchedule(
  { schedule: "0 19 * * *", timeZone: "Europe/Lisbon" },
  async () => {
    const db = getFirestore();
    const tomorrow = new Date();
    tomorrow.setDate(tomorrow.getDate() + 1);
    const day = tomorrow.toISOString().slice(0, 10);

    const deliveries = await db.collection("deliveries").where("date", "==", day).where("skipped", "==", false).get();
    let sent = 0;
    for (const d of deliveries.docs) {
      const customerId: string = d.get("customerId");
      const devices = await db.collection("users").doc(customerId).collection("devices").get();
      const tokens = devices.docs.map((x) => x.get("token") as string).filter(Boolean);
      if (tokens.length === 0) continue;
      const res = await getMessaging().sendEachForMulticast({
        tokens,
        notification: { title: "A sua caixa chega amanhã", body: "Prepare um lugar fresco para os legumes." },
      });
      sent += res.successCount;
    }
    logger.info("delivery reminders sent", { day, sent });
  },
);
