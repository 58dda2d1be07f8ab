"""Fetch waveform fixtures for the golden/regression tests."""
import os
from obspy import UTCDateTime
from obspy.clients.fdsn import Client

ORIGIN = UTCDateTime("2026-03-12T07:41:09")
STATIONS = ["N.KRTH", "N.TMRH", "IU.MAJO", "II.ERM"]


def main() -> None:
    client = Client("IRIS", user=os.environ.get("FDSN_USER"), password=os.environ.get("FDSN_PASSWORD"))
    for code in STATIONS:
        net, sta = code.split(".")
        st = client.get_waveforms(net, sta, "*", "?H?", ORIGIN - 30, ORIGIN + 30)
        st.write(f"test/data/{net}.{sta}.sac", format="SAC")


if __name__ == "__main__":
    main()
