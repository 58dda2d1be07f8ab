# firmware/main.py -- FV probe board, v0.9.5 draft
import machine, onewire, ds18x20, time
from umqtt.robust import MQTTClient
import config

ds = ds18x20.DS18X20(onewire.OneWire(machine.Pin(4)))
roms = ds.scan()
readings = []


def _tick(_t):
    ds.convert_temp()
    readings.append(int(round(ds.read_temp(roms[0]) * 100)))


machine.Timer(0).init(period=30000, mode=machine.Timer.PERIODIC, callback=_tick)
c = MQTTClient(config.CLIENT_ID, config.BROKER, keepalive=60)
c.connect()
seq = 0
while True:
    while readings:
        seq += 1
        c.publish(config.TOPIC, '{"temp_cc": %d, "seq": %d}' % (readings.pop(0), seq), qos=1)
    machine.lightsleep(1000)
