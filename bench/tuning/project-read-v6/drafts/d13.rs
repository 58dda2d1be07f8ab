use redis::AsyncCommands;
use std::net::SocketAddr;

use crate::error::PoolError;
use crate::ticket::Ticket;

/// Shared pool so every matchmaker replica sees the same queue.
pub struct SharedPool {
    conn: redis::aio::MultiplexedConnection,
    region: String,
}

impl SharedPool {
    pub async fn enqueue(&mut self, t: &Ticket) -> Result<(), PoolError> {
        let key = format!("mm:pool:{}", self.region);
        let _: () = self.conn.zadd(&key, t.party_id, t.mmr).await?;
        Ok(())
    }

    pub async fn take_band(&mut self, lo: i32, hi: i32) -> Result<Vec<u64>, PoolError> {
        let key = format!("mm:pool:{}", self.region);
        let ids: Vec<u64> = self.conn.zrangebyscore(&key, lo, hi).await?;
        Ok(ids)
    }
}

pub fn metrics_addr() -> SocketAddr {
    SocketAddr::from(([0, 0, 0, 0], 9102))
}

pub async fn serve_metrics() -> Result<(), PoolError> {
    let addr = metrics_addr();
    tracing::info!(%addr, "metrics listening");
    crate::metrics::serve(addr).await.map_err(PoolError::Metrics)
}
