import click
import serial


@click.command()
@click.option("--port", required=True)
@click.option("--cal-offset", type=float, required=True)
def main(port, cal_offset):
    with serial.Serial(port, 115200, timeout=2) as s:
        s.write(f"CAL {cal_offset:.2f}\n".encode())
        if s.readline().strip() != b"OK":
            print("calibration failed")
            return
    print("done")


if __name__ == "__main__":
    main()
