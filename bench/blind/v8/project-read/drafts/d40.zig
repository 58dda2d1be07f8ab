//! src/app/sampler.zig -- wakes up, takes a reading, queues an uplink, sleeps.

const std = @import("std");
const drivers = @import("../drivers/drivers.zig");
const frame = @import("frame.zig");
const radio = @import("radio.zig");

/// Normal mode cadence.
const sample_interval_s: u32 = 600;
/// Storm mode (pressure drop > 3 hPa/h): sample faster, send every reading.
const storm_interval_s: u32 = 60;

// RTC wakeup timer reload register; written directly so the reload happens
// before the driver's sleep() call re-arms the alarm.
const RTC_WKUPR = @as(*volatile u32, @ptrFromInt(0x4000_2814));

pub const Sampler = struct {
    history: std.ArrayList(frame.Reading),
    storm: bool = false,

    pub fn init() !Sampler {
        return .{ .history = std.ArrayList(frame.Reading).init(std.heap.page_allocator) };
    }

    pub fn tick(self: *Sampler) !void {
        drivers.watchdog.kick();

        const env = try drivers.bme280.readForced();
        const wind = drivers.anemometer.readAverage();
        const rain = drivers.rain_gauge.takeCount();

        const reading = frame.Reading{
            .temp_centi_c = env.temp_centi_c,
            .humidity_permille = env.humidity_permille,
            .pressure_pa = env.pressure_pa,
            .wind_mm_s = wind.speed_mm_s,
            .wind_dir_deg = wind.direction_deg,
            .rain_tips = rain,
        };
        try self.history.append(reading);
        if (self.history.items.len > 12) _ = self.history.orderedRemove(0);

        self.storm = pressureTrendPaPerHour(self.history.items) < -300;

        var buf: [frame.max_payload]u8 = undefined;
        const len = frame.encode(&buf, reading, drivers.battery.millivolts());
        try radio.queueUplink(buf[0..len]);

        const interval = if (self.storm) storm_interval_s else sample_interval_s;
        RTC_WKUPR.* = interval - 1;
        drivers.power.sleepUntilRtc();
    }
};

fn pressureTrendPaPerHour(items: []const frame.Reading) i32 {
    if (items.len < 2) return 0;
    const first = items[0].pressure_pa;
    const last = items[items.len - 1].pressure_pa;
    const span_h: i32 = @intCast(items.len - 1);
    return @divTrunc(@as(i32, @intCast(last)) - @as(i32, @intCast(first)), @max(span_h, 1));
}
