use serde::Serialize;
use std::net::IpAddr;

use crate::error::TelemetryError;
use crate::sink::Sink;

#[derive(Serialize)]
pub struct DisconnectEvent<'a> {
    pub player_hash: &'a str,
    pub player_ip: IpAddr,
    pub match_id: u64,
    pub reason: &'a str,
    pub ping_ms: u32,
}

pub fn emit_disconnect(sink: &dyn Sink, ev: &DisconnectEvent<'_>) -> Result<(), TelemetryError> {
    let body = serde_json::to_vec(ev).map_err(TelemetryError::Encode)?;
    log::info!("disconnect match={} reason={}", ev.match_id, ev.reason);
    sink.send("disconnect", &body)?;
    Ok(())
}

#[cfg(test)]
mod tests {
    use super::*;
    #[test]
    fn encodes() {
        let ev = DisconnectEvent { player_hash: "ab12", player_ip: "10.0.0.1".parse().unwrap(), match_id: 7, reason: "timeout", ping_ms: 80 };
        assert!(serde_json::to_vec(&ev).is_ok());
    }
}
