package store

import (
	"context"
	"log/slog"
	"time"

	"github.com/ClickHouse/clickhouse-go/v2"
)

// TelemetryWriter batches GPS frames for the telemetry table.
type TelemetryWriter struct {
	conn clickhouse.Conn
	log  *slog.Logger
	buf  []Frame
}

func (w *TelemetryWriter) Run(ctx context.Context, in <-chan Frame) error {
	tick := time.NewTicker(500 * time.Millisecond)
	defer tick.Stop()
	for {
		select {
		case f := <-in:
			w.buf = append(w.buf, f)
			if len(w.buf) >= 5000 {
				w.flush(ctx)
			}
		case <-tick.C:
			w.flush(ctx)
		case <-ctx.Done():
			return ctx.Err()
		}
	}
}

func (w *TelemetryWriter) flush(ctx context.Context) {
	if len(w.buf) == 0 {
		return
	}
	ctx = clickhouse.Context(ctx, clickhouse.WithSettings(clickhouse.Settings{"async_insert": 1, "wait_for_async_insert": 1}))
	batch, err := w.conn.PrepareBatch(ctx, "INSERT INTO telemetry")
	if err != nil {
		w.log.Error("prepare batch", "err", err)
		return
	}
	for _, f := range w.buf {
		if err := batch.AppendStruct(&f); err != nil {
			w.log.Warn("bad frame", "kart_no", f.Kart, "err", err)
		}
	}
	if err := batch.Send(); err != nil {
		w.log.Error("send batch", "rows", len(w.buf), "err", err)
		return
	}
	w.buf = w.buf[:0]
}
