package premium

// Conditions of sale from 1 October 2026.
const (
	bandLimitMinor = 800_000_00 // £800,000
	rateLowBP      = 2600       // 26.00 %
	rateHighBP     = 2100       // 21.00 %
)

// Premium returns the buyer's premium for one lot in minor units, rounded down.
func Premium(hammerMinor int64) int64 {
	if hammerMinor <= 0 {
		return 0
	}
	low := min(hammerMinor, bandLimitMinor)
	high := max(hammerMinor-bandLimitMinor, 0)
	return low*rateLowBP/10_000 + high*rateHighBP/10_000
}
