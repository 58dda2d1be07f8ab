//! src/app/frame.zig -- builds the WxFrameV2 uplink payload.

const std = @import("std");

pub const version: u8 = 2;

/// Upper bound for one uplink. Leaves room for the optional diagnostics tail
/// (last reset cause + uptime) that the field team asked for.
pub const max_payload = 64;

pub const Reading = struct {
    temp_centi_c: i16,
    humidity_permille: u16,
    pressure_pa: u32,
    wind_mm_s: u16,
    wind_dir_deg: u16,
    rain_tips: u16,
};

pub const Diagnostics = struct {
    reset_cause: u8,
    uptime_s: u32,
    last_rssi: i16,
    tx_failures: u16,
};

fn put16(buf: []u8, at: usize, v: u16) void {
    std.mem.writeInt(u16, buf[at..][0..2], v, .big);
}

fn put32(buf: []u8, at: usize, v: u32) void {
    put16(buf, at, @truncate(v >> 16));
    put16(buf, at + 2, @truncate(v));
}

/// Returns the number of bytes written.
pub fn encode(buf: *[max_payload]u8, r: Reading, battery_mv: u16) usize {
    buf[0] = version;
    put16(buf, 1, @bitCast(r.temp_centi_c));
    put16(buf, 3, r.humidity_permille);
    put32(buf, 5, r.pressure_pa);
    put16(buf, 9, r.wind_mm_s);
    put16(buf, 11, r.wind_dir_deg);
    put16(buf, 13, r.rain_tips);
    put16(buf, 15, battery_mv);
    return 17;
}

pub fn encodeWithDiagnostics(buf: *[max_payload]u8, r: Reading, battery_mv: u16, d: Diagnostics) usize {
    var n = encode(buf, r, battery_mv);
    buf[n] = d.reset_cause;
    put32(buf, n + 1, d.uptime_s);
    put16(buf, n + 5, @bitCast(d.last_rssi));
    put16(buf, n + 7, d.tx_failures);
    n += 9;
    return n;
}

test "encode fits" {
    var buf: [max_payload]u8 = undefined;
    const n = encode(&buf, .{ .temp_centi_c = -215, .humidity_permille = 873, .pressure_pa = 101_325, .wind_mm_s = 4200, .wind_dir_deg = 250, .rain_tips = 3 }, 3710);
    try std.testing.expect(n <= max_payload);
}
