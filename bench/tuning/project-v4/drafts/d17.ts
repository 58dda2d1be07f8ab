// server/src/ingest.ts
import type { MqttClient } from "mqtt";
import { query } from "./db";

interface TempMsg {
  temp_cc: number;
  seq: number;
}

export function subscribeTemps(client: MqttClient): void {
  client.subscribe("wort/+/+/temp", { qos: 1 });
  client.on("message", async (topic, buf) => {
    const [, site, fermenter] = topic.split("/");
    const msg = JSON.parse(buf.toString()) as TempMsg;
    const tempC = msg.temp_cc / 100;
    await query(
      "INSERT INTO reading (site, fermenter, ts, temp_c, seq) VALUES ($1, $2, now(), $3, $4) ON CONFLICT DO NOTHING",
      [site, fermenter, tempC, msg.seq],
    );
  });
}
