package planner

import (
	"context"
	"errors"
	"fmt"

	"github.com/jackc/pgx/v5"
)

func (p *Planner) refreshRoute(ctx context.Context, id int64) error {
	r, err := p.store.LoadRoute(ctx, id)
	if errors.Is(err, pgx.ErrNoRows) {
		p.log.Info("route gone", "route_id", id)
		return nil
	}
	if err != nil {
		return fmt.Errorf("planner: refresh route %d: %w", id, err)
	}
	return p.recompute(ctx, r)
}
