import AsyncStorage from "@react-native-async-storage/async-storage";
import * as Keychain from "react-native-keychain";
import { http } from "../api/http";

const DEVICE_KEY = "kestrel.rememberedDevice";
const PREFS_KEY = "prefs.rememberDevice";

export type RememberedDevice = {
  deviceId: string;
  deviceToken: string;
  enrolledAt: string;
};

export async function enrollDevice(): Promise<RememberedDevice> {
  const { data } = await http.post<RememberedDevice>("/bff/v1/devices/enroll");
  await AsyncStorage.setItem(DEVICE_KEY, JSON.stringify(data));
  await AsyncStorage.setItem(PREFS_KEY, "1");
  return data;
}

export async function loadRememberedDevice(): Promise<RememberedDevice | null> {
  const raw = await AsyncStorage.getItem(DEVICE_KEY);
  return raw ? (JSON.parse(raw) as RememberedDevice) : null;
}

export async function quickLogin(): Promise<boolean> {
  const device = await loadRememberedDevice();
  if (!device) return false;
  const creds = await Keychain.getGenericPassword({ service: "kestrel.session" });
  if (!creds) return false;
  const { status } = await http.post("/bff/v1/sessions/device", {
    deviceId: device.deviceId,
    deviceToken: device.deviceToken,
  });
  return status === 200;
}

export async function forgetDevice(): Promise<void> {
  await AsyncStorage.multiRemove([DEVICE_KEY, PREFS_KEY]);
  await http.delete("/bff/v1/devices/current");
}
