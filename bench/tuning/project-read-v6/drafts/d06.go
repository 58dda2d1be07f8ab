package ingest

import (
	"context"
	"fmt"
	"log/slog"

	"github.com/redis/go-redis/v9"
)

// ScanBuffer absorbs peak bursts (3k scans/s) in front of the scan writer.
type ScanBuffer struct {
	rdb *redis.Client
	log *slog.Logger
}

func NewScanBuffer(addr string, log *slog.Logger) *ScanBuffer {
	return &ScanBuffer{rdb: redis.NewClient(&redis.Options{Addr: addr}), log: log}
}

func (b *ScanBuffer) Push(ctx context.Context, shipmentID, payload string) error {
	err := b.rdb.XAdd(ctx, &redis.XAddArgs{
		Stream: "scan-events-buffer",
		MaxLen: 5_000_000,
		Values: map[string]any{"shipment_id": shipmentID, "payload": payload},
	}).Err()
	if err != nil {
		return fmt.Errorf("buffer scan %s: %w", shipmentID, err)
	}
	b.log.Debug("scan buffered", "shipment_id", shipmentID)
	return nil
}
