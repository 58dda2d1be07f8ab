package eta

import (
	"context"
	"fmt"
	"log/slog"
)

// Budget: p99 < 250ms. Nothing on this path may call OSRM synchronously;
// durations come from leg_durations, refreshed by the planner.

type LegReader interface {
	Durations(ctx context.Context, keys []LegKey) (map[LegKey]float64, error)
}

func (h *Handler) etaFor(ctx context.Context, req ETARequest) (ETA, error) {
	d, err := h.legs.Durations(ctx, req.LegKeys())
	if err != nil {
		return ETA{}, fmt.Errorf("eta: load durations: %w", err)
	}
	h.log.Debug("eta computed", "route_id", req.RouteID, "legs", len(d))
	return sumLegs(req, d, h.clock()), nil
}
