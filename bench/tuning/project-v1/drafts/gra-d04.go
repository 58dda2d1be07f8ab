package leaderboard

import (
	"context"
	"fmt"

	"github.com/redis/go-redis/v9"
)

func (s *Service) ApplyResult(ctx context.Context, r Result) error {
	pipe := s.rdb.TxPipeline()
	for _, sc := range r.Scores {
		pipe.ZIncrBy(ctx, lbKey(r.Season, r.Mode), sc.Delta, sc.PlayerID)
	}
	if _, err := pipe.Exec(ctx); err != nil {
		return fmt.Errorf("lb: apply result %s: %w", r.MatchID, err)
	}
	return nil
}
