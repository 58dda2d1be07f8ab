// dialog/src/settings.ts — runs inside the HtmlDialog
declare const sketchup: {
  saveSettings(json: string): void;
  ready(): void;
};

type Settings = { units: "mm" | "in"; openAfterExport: boolean; telemetry: boolean };

const LOCAL_BRIDGE = "http://127.0.0.1:8712";

export async function save(settings: Settings, modelPath: string): Promise<void> {
  sketchup.saveSettings(JSON.stringify(settings));
  await fetch(`${LOCAL_BRIDGE}/settings`, {
    method: "POST",
    headers: { "Content-Type": "application/json" },
    body: JSON.stringify(settings),
  });
  if (settings.telemetry) {
    navigator.sendBeacon(
      "https://telemetry.sketchbridge.io/v1/event",
      JSON.stringify({ event: "settings_saved", units: settings.units, model: modelPath }),
    );
  }
}

document.addEventListener("DOMContentLoaded", () => {
  sketchup.ready();
  const form = document.querySelector<HTMLFormElement>("#settings")!;
  form.addEventListener("submit", (e) => {
    e.preventDefault();
    const data = new FormData(form);
    void save({
      units: data.get("units") === "in" ? "in" : "mm",
      openAfterExport: data.has("open"),
      telemetry: data.has("telemetry"),
    }, String(data.get("modelPath") ?? ""));
  });
});
