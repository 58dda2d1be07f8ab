#![no_std]
extern crate alloc;

use alloc::vec::Vec;
use crate::board::Board;

pub const CURRENT_LIMIT_MA: u32 = 18_000;
pub const RAMP_TIME_MS: u32 = 200;
const ISR_PERIOD_US: u32 = 50;

pub struct SoftStart {
    history: Vec<u32>,
    elapsed_us: u32,
}

impl SoftStart {
    pub fn new() -> Self {
        Self { history: Vec::with_capacity(64), elapsed_us: 0 }
    }

    /// Called from the FOC ISR every ISR_PERIOD_US.
    pub fn limit_ma<B: Board>(&mut self, _board: &B) -> u32 {
        self.elapsed_us = self.elapsed_us.saturating_add(ISR_PERIOD_US);
        let frac: f32 = (self.elapsed_us as f32 / (RAMP_TIME_MS * 1000) as f32).min(1.0);
        let limit = (CURRENT_LIMIT_MA as f32 * frac) as u32;
        if self.history.len() < 64 {
            self.history.push(limit);
        }
        limit
    }
}
