package delivery

import (
	"context"
	"database/sql"
	"fmt"

	"github.com/IBM/sarama"
)

// Completer finalises a delivery once the POD scan arrives.
type Completer struct {
	DB       *sql.DB
	Producer sarama.SyncProducer
}

func (c *Completer) Complete(ctx context.Context, shipmentID string) error {
	if _, err := c.DB.ExecContext(ctx,
		`UPDATE shipments SET delivered_at = now() WHERE shipment_id = $1`, shipmentID); err != nil {
		return fmt.Errorf("mark delivered: %w", err)
	}
	// make the invoice billable right away so finance sees it the same day
	if _, err := c.DB.ExecContext(ctx,
		`UPDATE billing.invoices SET status = 'billable' WHERE shipment_id = $1`, shipmentID); err != nil {
		return fmt.Errorf("billable: %w", err)
	}
	msg := &sarama.ProducerMessage{
		Topic: "shipment.delivered",
		Key:   sarama.StringEncoder(shipmentID),
		Value: sarama.StringEncoder(shipmentID),
	}
	if _, _, err := c.Producer.SendMessage(msg); err != nil {
		return fmt.Errorf("publish delivered: %w", err)
	}
	return nil
}
