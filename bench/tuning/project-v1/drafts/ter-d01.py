"""Read back serial number and calibration offset from a tern logger."""
import sys
from decimal import Decimal

import serial
import typer

app = typer.Typer(add_completion=False)


def cdeg_to_text(cdeg: int) -> str:
    return str(Decimal(cdeg) / 100)


@app.command()
def main(port: str = typer.Option(...)) -> None:
    try:
        with serial.Serial(port, 115200, timeout=2) as s:
            s.write(b"RB\n")
            line = s.readline().decode().strip()
    except serial.SerialException as e:
        typer.echo(f"port error: {e}", err=True)
        raise typer.Exit(3)
    if not line.startswith("OK "):
        typer.echo(f"device refused: {line!r}", err=True)
        raise typer.Exit(2)
    serial_no, cal = line[3:].split(",")
    typer.echo(f"serial={serial_no} cal_offset={cdeg_to_text(int(cal))} C")


if __name__ == "__main__":
    app()
