package updater

import (
	"context"
	"fmt"
	"time"
)

const maxChamberC = 80.0

// Precheck refuses to flash unless the kiln is idle and cool.
func (u *Updater) Precheck(ctx context.Context) error {
	st, err := u.dev.KilnState(ctx)
	if err != nil {
		return fmt.Errorf("precheck: read state: %w", err)
	}
	temp, err := u.dev.ChamberTemp(ctx)
	if err != nil {
		return fmt.Errorf("precheck: read temp: %w", err)
	}
	if st != KilnIdle || temp >= maxChamberC {
		u.retryAt = time.Now().Add(30 * time.Minute)
		return ErrNotIdle
	}
	return nil
}
