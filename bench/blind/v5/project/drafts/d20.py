import time

import pytest

from tests.hil.util import fmt_frame

@pytest.fixture
def ids(bms_rig):
    # frame ids come from proto/can_ids.yaml via the rig
    return bms_rig.can_ids


@pytest.mark.hil
def test_contactor_opens_on_overtemp(bms_rig, ids):
    """Inject an overtemperature on NTC 3 and expect the contactor to open within 50 ms."""
    OT_FAULT_ID, CONTACTOR_STATE_ID = ids["OT_FAULT"].id, ids["CONTACTOR_STATE"].id
    bms_rig.contactor.close()
    assert bms_rig.wait_frame("PACK_STATUS", lambda f: f.contactor_closed, timeout=1.0)

    t0 = time.monotonic()
    bms_rig.ntc.set_temperature(channel=3, degc=47.0)  # OT limit is 45 C

    frame = bms_rig.wait_raw(CONTACTOR_STATE_ID, lambda f: f.data[0] == 0x00, timeout=0.5)
    elapsed_ms = (time.monotonic() - t0) * 1000

    assert frame is not None, "contactor never reported open"
    assert elapsed_ms <= 50, f"contactor opened after {elapsed_ms:.1f} ms: {fmt_frame(frame)}"

    fault = bms_rig.wait_raw(OT_FAULT_ID, timeout=0.2)
    assert fault is not None, "no OT fault frame"
    assert fault.data[1] == 3, f"wrong NTC channel in fault: {fmt_frame(fault)}"


@pytest.mark.hil
def test_contactor_stays_open_until_cleared(bms_rig, ids):
    limits = bms_rig.thresholds  # loaded from config/thresholds/<board>.yaml by the fixture
    bms_rig.ntc.set_temperature(channel=3, degc=limits.cell.ot_degc + 2)
    bms_rig.wait_raw(ids["OT_FAULT"].id, timeout=0.5)
    bms_rig.ntc.set_temperature(channel=3, degc=25)
    time.sleep(2.0)
    status = bms_rig.read_frame("PACK_STATUS")
    assert not status.contactor_closed, "contactor re-closed without fault clear"
