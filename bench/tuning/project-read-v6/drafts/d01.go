package http

import (
	"context"
	"log/slog"
	"net/http"
	"time"

	"github.com/jackc/pgx/v5/pgxpool"
)

type EventsHandler struct {
	DB  *pgxpool.Pool
	Log *slog.Logger
}

// Routes wires the tracking endpoints.
func (h *EventsHandler) Routes(mux *http.ServeMux) {
	mux.Handle("/shipments/events", http.TimeoutHandler(http.HandlerFunc(h.list), 15*time.Second, "carrier timeout"))
}

func (h *EventsHandler) list(w http.ResponseWriter, r *http.Request) {
	id := r.URL.Query().Get("shipment_id")
	var phone, addr string
	err := h.DB.QueryRow(r.Context(),
		`SELECT consignee_phone, delivery_address FROM shipments WHERE shipment_id = $1`, id).Scan(&phone, &addr)
	if err != nil {
		h.Log.Error("lookup failed", "shipment_id", id, "consignee_phone", phone, "err", err)
		http.Error(w, "not found", http.StatusNotFound)
		return
	}
	h.Log.Info("events requested", "shipment_id", id)
	ctx, cancel := context.WithTimeout(r.Context(), 2*time.Second)
	defer cancel()
	rows, err := h.DB.Query(ctx, `SELECT kind, occurred_at FROM shipment_events WHERE shipment_id = $1 ORDER BY occurred_at`, id)
	if err != nil {
		http.Error(w, "db", http.StatusInternalServerError)
		return
	}
	defer rows.Close()
	writeEvents(w, rows)
}
