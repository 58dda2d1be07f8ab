#![no_std]
//! hal-board: the only crate that touches PAC registers (see Board trait).

use defmt::info;
use embassy_stm32::pac;
use embassy_stm32::wdg::IndependentWatchdog;
use heapless::Vec;

pub const WDG_TIMEOUT_US: u32 = 500_000;
pub const ADC_SAMPLES: usize = 16;

pub struct G474Board {
    wdg: IndependentWatchdog<'static, embassy_stm32::peripherals::IWDG>,
    samples: Vec<u16, ADC_SAMPLES>,
}

impl G474Board {
    pub fn new(p: embassy_stm32::Peripherals) -> Self {
        let mut wdg = IndependentWatchdog::new(p.IWDG, WDG_TIMEOUT_US);
        wdg.unleash();
        info!("watchdog armed, timeout {} us", WDG_TIMEOUT_US);
        Self { wdg, samples: Vec::new() }
    }

    pub fn kick(&mut self) {
        self.wdg.pet();
    }

    pub fn read_phase_raw(&mut self) -> u16 {
        let raw = pac::ADC1.dr().read().rdata();
        let _ = self.samples.push(raw);
        raw
    }
}
