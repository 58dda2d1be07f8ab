import type { FermenterState } from "./types";

export function FermenterTile({ fv }: { fv: FermenterState }) {
  const tempC = (fv.temp_cc / 100).toFixed(1);
  const setpointC = (fv.setpoint_cc / 100).toFixed(1);
  return (
    <div className={fv.alarm ? "tile tile--alarm" : "tile"}>
      <h2>{fv.name}</h2>
      <p className="temp">{tempC} °C</p>
      <p className="setpoint">setpoint {setpointC} °C</p>
      <p className="gravity">{fv.sg.toFixed(3)}</p>
    </div>
  );
}
