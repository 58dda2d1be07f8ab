use std::collections::VecDeque;
use std::time::{Duration, Instant};

use crate::error::PoolError;

pub const MAX_PARTY_SIZE: usize = 4;
pub const QUEUE_WIDEN_AFTER: Duration = Duration::from_secs(90);
const BAND_STEP: i32 = 75;

#[derive(Debug, Clone)]
pub struct Ticket {
    pub party_id: u64,
    pub members: Vec<u64>,
    pub mmr: f32,
    pub enqueued_at: Instant,
}

pub struct RegionPool {
    tickets: VecDeque<Ticket>,
}

impl RegionPool {
    pub fn push(&mut self, t: Ticket) -> Result<(), PoolError> {
        if t.members.len() > MAX_PARTY_SIZE {
            return Err(PoolError::PartyTooLarge(t.members.len()));
        }
        self.tickets.push_back(t);
        Ok(())
    }

    pub fn band_for(&self, t: &Ticket, now: Instant) -> i32 {
        let waited = now.duration_since(t.enqueued_at);
        if waited >= QUEUE_WIDEN_AFTER {
            BAND_STEP * 2
        } else {
            BAND_STEP
        }
    }
}
