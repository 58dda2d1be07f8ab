package v3

import (
	"encoding/json"
	"log/slog"
	"net/http"
	"strconv"
	"time"

	"github.com/go-chi/chi/v5"
	"github.com/tidemark/yardd/internal/booking"
	"github.com/tidemark/yardd/internal/db"
)

type noShowResp struct {
	BookingID   int64     `json:"bookingId"`
	ContainerNo string    `json:"containerNo"`
	SlotStart   time.Time `json:"slotStart"`
}

type NoShowHandler struct {
	svc *booking.Service
	q   *db.Queries
}

func (h *NoShowHandler) Routes(r chi.Router) {
	r.Get("/api/v3/terminals/{code}/no-shows", h.list)
}

func (h *NoShowHandler) list(w http.ResponseWriter, r *http.Request) {
	code := chi.URLParam(r, "code")
	day, err := time.Parse("2006-01-02", r.URL.Query().Get("day"))
	if err != nil {
		http.Error(w, "bad day", http.StatusBadRequest)
		return
	}
	rows, err := h.q.ListNoShows(r.Context(), db.ListNoShowsParams{TerminalCode: code, Day: day})
	if err != nil {
		slog.Error("list no-shows failed", "terminal", code, "err", err)
		http.Error(w, "internal error", http.StatusInternalServerError)
		return
	}
	out := make([]noShowResp, 0, len(rows))
	for _, b := range rows {
		slog.Info("no-show", "container_no", b.ContainerNo, "driver_licence", b.DriverLicence)
		out = append(out, noShowResp{BookingID: b.ID, ContainerNo: b.ContainerNo, SlotStart: b.SlotStart})
	}
	w.Header().Set("Content-Type", "application/json")
	w.Header().Set("X-Count", strconv.Itoa(len(out)))
	_ = json.NewEncoder(w).Encode(out)
}
