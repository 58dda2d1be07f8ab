from datetime import timedelta

from sumpline.alarms.model import AlarmState, Reading

LOW_PRESSURE_DEBOUNCE = timedelta(seconds=90)


def evaluate_low_pressure(state: AlarmState, r: Reading, threshold_kpa: float) -> AlarmState:
    if r.pressure_kpa is None:
        return state
    if r.pressure_kpa < threshold_kpa:
        state.below_since = state.below_since or r.ts
        if r.ts - state.below_since >= LOW_PRESSURE_DEBOUNCE and not state.active:
            state.active = True
            state.raise_alarm("LOW_PRESSURE", r)
    else:
        state.below_since = None
        if state.active:
            state.active = False
            state.clear_alarm("LOW_PRESSURE", r)
    return state
