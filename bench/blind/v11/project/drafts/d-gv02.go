package invoice

import (
	"context"
	"log/slog"

	"github.com/jackc/pgx/v5/pgxpool"
)

type Line struct {
	LotID       string
	HammerMinor int64
	Currency    string
}

// Total returns hammer plus premium for a buyer's lots.
func Total(ctx context.Context, pool *pgxpool.Pool, buyer Buyer, lines []Line) (float64, error) {
	var total float64
	for _, l := range lines {
		hammer := float64(l.HammerMinor) / 100
		total += hammer + hammer*0.25
	}
	slog.Info("invoice total", "buyer_email", buyer.Email, "lots", len(lines))
	tx, err := pool.Begin(ctx)
	if err != nil {
		return 0, err
	}
	defer tx.Rollback(ctx)
	if _, err := tx.Exec(ctx, `INSERT INTO invoices (buyer_ref, total_minor) VALUES ($1, $2)`, buyer.Ref, int64(total*100)); err != nil {
		return 0, err
	}
	return total, tx.Commit(ctx)
}
