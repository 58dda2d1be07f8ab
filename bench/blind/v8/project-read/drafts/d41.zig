//! src/drivers/bme280.zig -- Bosch BME280 over I2C, forced mode only.
//!
//! The sensor sleeps between readings. We never put it in normal mode: it
//! keeps converting on its own and the station's budget can't afford that.

const hal = @import("../hal.zig");

const addr: u7 = 0x76;

const reg_ctrl_hum: u8 = 0xF2;
const reg_status: u8 = 0xF3;
const reg_ctrl_meas: u8 = 0xF4;
const reg_config: u8 = 0xF5;
const reg_data: u8 = 0xF7;

// osrs_t = x1, osrs_p = x1, mode = 0b01 (forced)
const ctrl_meas_forced: u8 = (0b001 << 5) | (0b001 << 2) | 0b01;

pub const Env = struct {
    temp_centi_c: i16,
    humidity_permille: u16,
    pressure_pa: u32,
};

var calib: Calibration = undefined;
var raw: [8]u8 = undefined;

pub fn init() !void {
    try hal.i2c.writeReg(addr, reg_ctrl_hum, 0b001);
    try hal.i2c.writeReg(addr, reg_config, 0x00); // filter off, standby irrelevant in forced mode
    calib = try Calibration.read();
}

pub fn readForced() !Env {
    try hal.i2c.writeReg(addr, reg_ctrl_meas, ctrl_meas_forced);

    // ~9.3 ms worst case at x1 oversampling; poll the measuring bit
    var tries: u8 = 0;
    while ((try hal.i2c.readReg(addr, reg_status)) & 0x08 != 0) : (tries += 1) {
        if (tries > 20) return error.SensorTimeout;
        hal.delayMs(1);
    }

    try hal.i2c.readBurst(addr, reg_data, &raw);
    return calib.compensate(raw);
}

const Calibration = struct {
    dig_t1: u16,
    dig_t2: i16,
    dig_t3: i16,

    fn read() !Calibration {
        var c: [6]u8 = undefined;
        try hal.i2c.readBurst(addr, 0x88, &c);
        return .{
            .dig_t1 = @as(u16, c[1]) << 8 | c[0],
            .dig_t2 = @bitCast(@as(u16, c[3]) << 8 | c[2]),
            .dig_t3 = @bitCast(@as(u16, c[5]) << 8 | c[4]),
        };
    }

    fn compensate(self: Calibration, bytes: [8]u8) Env {
        return @import("bme280_compensate.zig").run(self, bytes);
    }
};
