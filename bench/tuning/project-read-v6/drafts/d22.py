"""HIL: controller must answer the BMS heartbeat within 50 ms."""
import socket
import struct
import time

import pytest

CAN_IFACE = "can0"
BITRATE = 250000
BMS_HEARTBEAT_ID = 0x18FF50E5
CTRL_ACK_ID = 0x18FF51E5


@pytest.fixture
def bus():
    import subprocess
    subprocess.run(["ip", "link", "set", CAN_IFACE, "type", "can", "bitrate", str(BITRATE)], check=True)
    subprocess.run(["ip", "link", "set", CAN_IFACE, "up"], check=True)
    s = socket.socket(socket.AF_CAN, socket.SOCK_RAW, socket.CAN_RAW)
    s.bind((CAN_IFACE,))
    s.settimeout(0.05)
    yield s
    s.close()


def test_heartbeat_ack(bus):
    frame = struct.pack("=IB3x8s", BMS_HEARTBEAT_ID | socket.CAN_EFF_FLAG, 2, b"\x01\x00")
    start = time.monotonic()
    bus.send(frame)
    data = bus.recv(16)
    can_id, = struct.unpack("=I", data[:4])
    assert (can_id & socket.CAN_EFF_MASK) == CTRL_ACK_ID
    assert time.monotonic() - start < 0.05
