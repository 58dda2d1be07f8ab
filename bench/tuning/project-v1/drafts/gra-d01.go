package matchmaker

import (
	"fmt"

	"github.com/redis/go-redis/v9"
)

// Keys use region hash tags so one party's claim touches a single cluster slot.
func queueKey(region, mode string) string { return fmt.Sprintf("mm:q:{%s}:%s", region, mode) }
func partyKey(region, id string) string   { return fmt.Sprintf("mm:p:{%s}:%s", region, id) }

type Queue struct {
	rdb redis.UniversalClient
}
