// Forethought workspace: the only script. Every page works without it; with it, an import
// shows its progress live (server-sent events) instead of waiting for the result page.
"use strict";

function followImport(form) {
  const panel = document.getElementById("import-progress");
  const bar = document.getElementById("import-bar");
  const percent = document.getElementById("import-percent");
  const log = document.getElementById("import-log");
  const done = document.getElementById("import-done");
  const button = document.getElementById("import-submit");
  const title = document.getElementById("import-title");

  function line(text) {
    const item = document.createElement("li");
    item.textContent = text; // memory text is data, never markup
    log.appendChild(item);
  }

  form.addEventListener("submit", async (event) => {
    event.preventDefault();
    button.disabled = true;
    log.replaceChildren();
    done.hidden = true;
    bar.value = 0;
    percent.textContent = "0%";
    title.textContent = "Importing…";
    panel.hidden = false;
    panel.scrollIntoView({ block: "nearest" });
    let reply;
    try {
      const response = await fetch(form.dataset.jobs, { method: "POST", body: new FormData(form), credentials: "same-origin" });
      reply = response.headers.get("content-type")?.startsWith("application/json") ? await response.json() : {};
      if (!response.ok) throw new Error(reply.error || `the server refused the import (${response.status})`);
    } catch (error) {
      line(error.message);
      button.disabled = false;
      return;
    }
    const events = new EventSource(reply.events);
    events.addEventListener("progress", (message) => {
      const progress = JSON.parse(message.data);
      bar.value = progress.percent;
      percent.textContent = `${progress.percent}%`;
      line(progress.message);
      if (progress.finished) {
        events.close();
        button.disabled = false;
        done.hidden = progress.stage !== "done";
        title.textContent = progress.stage === "done" ? "Imported" : "Import stopped";
        panel.dataset.state = progress.stage;
      }
    });
    events.addEventListener("error", () => {
      if (events.readyState === EventSource.CLOSED) line("lost the connection to the server");
    });
  });
}

document.addEventListener("DOMContentLoaded", () => {
  const form = document.getElementById("import-form");
  if (form && form.dataset.jobs && window.EventSource && window.fetch) followImport(form);
});
