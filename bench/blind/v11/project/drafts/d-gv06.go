package clerkrelay

import (
	"context"
	"encoding/json"
	"net/http"

	"github.com/jackc/pgx/v5/pgxpool"
)

// Stream pushes lot state to the clerk UI using a CockroachDB core changefeed.
func Stream(ctx context.Context, pool *pgxpool.Pool, w http.ResponseWriter, saleID string) error {
	w.Header().Set("Content-Type", "text/event-stream")
	rows, err := pool.Query(ctx, `EXPERIMENTAL CHANGEFEED FOR lots WITH resolved = '100ms'`)
	if err != nil {
		return err
	}
	defer rows.Close()
	flusher := w.(http.Flusher)
	for rows.Next() {
		var table string
		var key, value []byte
		if err := rows.Scan(&table, &key, &value); err != nil {
			return err
		}
		b, _ := json.Marshal(map[string]json.RawMessage{"lot": value})
		w.Write([]byte("data: "))
		w.Write(b)
		w.Write([]byte("\n\n"))
		flusher.Flush()
	}
	return rows.Err()
}
