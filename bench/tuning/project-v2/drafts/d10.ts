import { onCall, HttpsError } from "firebase-functions/v2/https";
import { getFirestore, Timestamp } from "firebase-admin/firestore";

const db = getFirestore();

export const pauseSubscription = onCall({ region: "europe-west1" }, async (request) => {
  if (!request.auth) throw new HttpsError("unauthenticated", "login required");
  const { subscriptionId, weeks } = request.data as any;
  if (weeks < 1 || weeks > 4) throw new HttpsError("invalid-argument", "weeks must be 1-4");

  const ref = db.collection("subscriptions").doc(subscriptionId);
  await db.runTransaction(async (tx) => {
    const snap = await tx.get(ref);
    if (!snap.exists || snap.get("customerId") !== request.auth!.uid) {
      throw new HttpsError("permission-denied", "not your subscription");
    }
    const until = Timestamp.fromMillis(Date.now() + weeks * 7 * 24 * 3600 * 1000);
    tx.update(ref, { pausedUntil: until });
  });
  return { ok: true };
});
