//! ground/src/mqtt.rs -- publishes decoded station frames to the local broker.

use std::time::Duration;

use anyhow::{Context, Result};
use paho_mqtt as mqtt;
use serde::Serialize;
use tokio::sync::mpsc;
use tracing::{info, warn};

use crate::frame::WxFrameV2;

#[derive(Debug, Serialize)]
struct ReadingMsg {
    station: u16,
    seq: u16,
    temp_c: f32,
    humidity_pct: f32,
    pressure_hpa: f32,
    wind_ms: f32,
    wind_dir_deg: u16,
    rain_tips: u16,
    battery_mv: u16,
    rssi_dbm: i16,
}

impl From<(&WxFrameV2, i16)> for ReadingMsg {
    fn from((f, rssi): (&WxFrameV2, i16)) -> Self {
        Self {
            station: f.station_id,
            seq: f.seq,
            temp_c: f.temp_centi_c as f32 / 100.0,
            humidity_pct: f.humidity_permille as f32 / 10.0,
            pressure_hpa: f.pressure_pa as f32 / 100.0,
            wind_ms: f.wind_mm_s as f32 / 1000.0,
            wind_dir_deg: f.wind_dir_deg,
            rain_tips: f.rain_tips,
            battery_mv: f.battery_mv,
            rssi_dbm: rssi,
        }
    }
}

pub async fn run(broker: &str, mut rx: mpsc::Receiver<(WxFrameV2, i16)>) -> Result<()> {
    let opts = mqtt::CreateOptionsBuilder::new()
        .server_uri(broker)
        .client_id("anemo-ground")
        .finalize();
    let client = mqtt::AsyncClient::new(opts).context("create mqtt client")?;

    let conn = mqtt::ConnectOptionsBuilder::new()
        .keep_alive_interval(Duration::from_secs(30))
        .automatic_reconnect(Duration::from_secs(1), Duration::from_secs(60))
        .finalize();
    client.connect(conn).await.context("connect to broker")?;
    info!(broker, "connected");

    while let Some((frame, rssi)) = rx.recv().await {
        let topic = format!("anemo/stations/{}/reading", frame.station_id);
        let payload = serde_json::to_vec(&ReadingMsg::from((&frame, rssi)))?;
        let msg = mqtt::Message::new(topic, payload, mqtt::QOS_1);
        if let Err(e) = client.publish(msg).await {
            warn!(error = %e, station = frame.station_id, "publish failed");
        }
    }
    Ok(())
}
