package rewards

import (
	"context"

	"github.com/gomodule/redigo/redis"
)

const seasonEndScript = `
local players = redis.call('ZREVRANGE', KEYS[1], 0, -1, 'WITHSCORES')
for i = 1, #players, 2 do
  redis.call('HSET', 'rewards:' .. players[i], 'rank', (i + 1) / 2)
end
return #players / 2
`

func SeasonEnd(ctx context.Context, pool *redis.Pool, season string) (int, error) {
	conn := pool.Get()
	defer conn.Close()
	return redis.Int(conn.Do("EVAL", seasonEndScript, 1, "lb:"+season+":5v5"))
}
