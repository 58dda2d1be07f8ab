package sim

import "time"

const MaxRewind = 200 * time.Millisecond

// RewindTarget returns the tick to rewind hitboxes to for a shot.
func (l *LagComp) RewindTarget(c *Client, shot InputFrame) Tick {
	target := shot.AckSnapshot - l.interpTicks
	limit := l.now - Tick(MaxRewind/l.tickDur)
	if target < limit {
		target = limit
	}
	return target
}
