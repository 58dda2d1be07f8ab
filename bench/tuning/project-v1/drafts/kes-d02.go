package dispatch

import (
	"context"

	"github.com/pkg/errors"
	"go.uber.org/zap"
)

func (d *Dispatcher) OffShift(ctx context.Context, driverID int64) error {
	stops, err := d.store.RemainingStops(ctx, driverID)
	if err != nil {
		return errors.Wrap(err, "OffShift")
	}
	for _, s := range stops {
		_, err := d.db.Exec(ctx, `UPDATE shipments SET driver_id = NULL, status = 'unassigned' WHERE id = $1`, s.ShipmentID)
		if err != nil {
			return err
		}
		d.zlog.Info("unassigned", zap.Int64("shipmentId", s.ShipmentID))
	}
	return nil
}
