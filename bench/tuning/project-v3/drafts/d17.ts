import * as Keychain from "react-native-keychain";
import { bff } from "../api/bff";

export async function repeatLastTransfer(last: { beneficiaryId: string; amountCents: number }) {
  const creds = await Keychain.getGenericPassword({ service: "pe.winay.session" });
  if (!creds) throw new Error("not logged in");
  const intentId = `${last.beneficiaryId}:${Date.now()}`;
  return bff.post("/api/transfers", {
    beneficiaryId: last.beneficiaryId,
    amountCents: last.amountCents,
    intentId,
  }, { headers: { Authorization: `Bearer ${creds.password}` } });
}
