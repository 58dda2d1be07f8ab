import maplibregl from "maplibre-gl";
import { useEffect, useRef } from "react";

export function PlanningMap() {
  const ref = useRef<HTMLDivElement>(null);
  useEffect(() => {
    const map = new maplibregl.Map({
      container: ref.current!,
      style: "/styles/planning.json",
      center: [-9.05, 53.27],
      zoom: 12,
    });
    map.addControl(new maplibregl.NavigationControl(), "top-right");
    map.on("click", "parcels-fill", (e) => {
      const p = e.features?.[0]?.properties;
      if (p) new maplibregl.Popup().setLngLat(e.lngLat).setText(`${p.parcel_no} ${p.planning_refs}`).addTo(map);
    });
    return () => map.remove();
  }, []);
  return <div ref={ref} className="map" />;
}
