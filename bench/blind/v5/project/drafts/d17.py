"""templog: log pack temperatures to CSV during thermal chamber runs."""
import csv
import sys
import time
from pathlib import Path

import can
import click
import yaml

from tools.common.thresholds import load_thresholds

CAN_IDS = yaml.safe_load(Path("proto/can_ids.yaml").read_text())["frames"]
PACK_TEMP_ID = CAN_IDS["PACK_TEMP"]["id"]


def decode_temps(data: bytes) -> list[float]:
    # 4 x int16, 0.1 degC per bit, little endian
    return [int.from_bytes(data[i:i + 2], "little", signed=True) / 10 for i in range(0, 8, 2)]


@click.command()
@click.option("--channel", default="PCAN_USBBUS1", show_default=True)
@click.option("--board", default="bms_v3", show_default=True)
@click.option("--period", default=5.0, show_default=True, help="seconds between samples")
@click.argument("out", type=click.Path(dir_okay=False, writable=True))
def main(channel: str, board: str, period: float, out: str) -> None:
    limits = load_thresholds(board)
    bus = can.Bus(interface="pcan", channel=channel, bitrate=500_000)
    with open(out, "w", newline="") as fh:
        w = csv.writer(fh)
        w.writerow(["t", "t1", "t2", "t3", "t4", "over_limit"])
        last = 0.0
        for msg in bus:
            if msg.arbitration_id != PACK_TEMP_ID:
                continue
            now = time.monotonic()
            if now - last < period:
                continue
            last = now
            temps = decode_temps(msg.data)
            over = any(t * 1000 > limits.cell.ot_mdegc for t in temps)
            w.writerow([f"{time.time():.1f}", *temps, int(over)])
            fh.flush()
            if over:
                click.secho(f"{msg.arbitration_id:08X}  [{msg.dlc}]  {msg.data.hex(' ').upper()}", fg="red", err=True)


if __name__ == "__main__":
    sys.exit(main())
