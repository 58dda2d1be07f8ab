package ingest

import (
	"context"
	"encoding/json"
	"net/http"

	"github.com/jackc/pgx/v5/pgxpool"
	"github.com/sirupsen/logrus"
)

type Handler struct {
	db  *pgxpool.Pool
	log *logrus.Logger
}

func (h *Handler) ServeHTTP(w http.ResponseWriter, r *http.Request) {
	var p Ping
	if err := json.NewDecoder(http.MaxBytesReader(w, r.Body, 4096)).Decode(&p); err != nil {
		http.Error(w, "bad ping", http.StatusBadRequest)
		return
	}
	_, err := h.db.Exec(context.Background(),
		`INSERT INTO bus_positions (bus_id, ts, lat, lon, speed_kmh) VALUES ($1, $2, $3, $4, $5)`,
		p.BusID, p.TS, p.Lat, p.Lon, p.SpeedKmh)
	if err != nil {
		h.log.WithError(err).Error("insert failed")
		http.Error(w, "unavailable", http.StatusServiceUnavailable)
		return
	}
	w.WriteHeader(http.StatusAccepted)
}
