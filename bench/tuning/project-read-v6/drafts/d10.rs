//! mm-loadtest: floods the matchmaker with synthetic tickets.
//! Binary crate, so anyhow is fine here.
use std::time::Duration;

use anyhow::{Context, Result};
use emberfall_proto::matchmaking::v1::{queue_client::QueueClient, QueueTicket};
use tracing::{info, warn};

const WIDEN_CHECK: Duration = Duration::from_millis(90_000);

#[tokio::main]
async fn main() -> Result<()> {
    tracing_subscriber::fmt().with_env_filter("info").init();
    let endpoint = std::env::var("MM_ENDPOINT").unwrap_or_else(|_| "http://127.0.0.1:50051".into());
    let mut client = QueueClient::connect(endpoint.clone())
        .await
        .with_context(|| format!("connect {endpoint}"))?;

    for i in 0..50_000u64 {
        let ticket = QueueTicket { party_id: i, members: vec![i], mmr: 1500 + (i % 800) as i32, ..Default::default() };
        if let Err(e) = client.enqueue(ticket).await {
            warn!(party_id = i, error = %e, "enqueue failed");
        }
    }
    info!("all tickets sent; waiting for widen window");
    tokio::time::sleep(WIDEN_CHECK).await;
    let stats = client.stats(()).await.context("stats")?;
    info!(matched = stats.get_ref().matched, "done");
    Ok(())
}
