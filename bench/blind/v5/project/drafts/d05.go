package booking

import (
	"context"
	"errors"
	"fmt"
	"log/slog"
	"sort"

	"github.com/jackc/pgx/v5"
	"github.com/jackc/pgx/v5/pgxpool"

	"github.com/tidemark/yardd/internal/db"
)

var ErrSlotFull = errors.New("slot full")

type Service struct {
	pool *pgxpool.Pool
	log  *slog.Logger
}

// MoveBookings re-books several containers onto new slots in one transaction.
// Slot rows are locked with SELECT ... FOR UPDATE in ascending id order so two
// concurrent moves can never wait on each other in opposite order.
func (s *Service) MoveBookings(ctx context.Context, moves map[int64]int64) error {
	slotIDs := make([]int64, 0, len(moves))
	for _, to := range moves {
		slotIDs = append(slotIDs, to)
	}
	sort.Slice(slotIDs, func(i, j int) bool { return slotIDs[i] < slotIDs[j] })

	return pgx.BeginFunc(ctx, s.pool, func(tx pgx.Tx) error {
		q := db.New(tx)
		for _, id := range slotIDs {
			slot, err := q.LockSlot(ctx, id) // SELECT ... FOR UPDATE
			if err != nil {
				return fmt.Errorf("lock slot %d: %w", id, err)
			}
			if slot.Reserved >= slot.Capacity {
				return fmt.Errorf("slot %d: %w", id, ErrSlotFull)
			}
		}
		for bookingID, to := range moves {
			b, err := q.MoveBooking(ctx, db.MoveBookingParams{ID: bookingID, SlotID: to})
			if err != nil {
				return fmt.Errorf("move booking %d: %w", bookingID, err)
			}
			s.log.InfoContext(ctx, "booking moved", "booking_id", b.ID, "container_no", b.ContainerNo, "slot_id", to)
		}
		return nil
	})
}
