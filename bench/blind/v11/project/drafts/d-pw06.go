package scoring

import (
	"testing"
	"time"

	"github.com/lakeside-timing/pitwall/internal/replay"
)

func TestMostImproved_ClubNightR3(t *testing.T) {
	src := replay.New(t, "../../testdata/captures/club-night-r3.bin", replay.FastForward())
	fcy := replay.LoadFCY(t, "../../testdata/captures/club-night-r3.fcy.json")
	laps := BuildLaps(t, src, fcy)

	quali := filterSession(laps, "Q")
	final := filterSession(laps, "F")
	got := MostImproved(quali, final)

	if got.Kart != 12 {
		t.Fatalf("most improved = kart %d, want 12", got.Kart)
	}
	// kart 7 set a 51.204s lap under yellow in the final; it must not count.
	if got.Kart == 7 {
		t.Fatalf("FCY lap counted for kart 7")
	}
	gain := time.Duration(got.GainUs) * time.Microsecond
	t.Logf("kart %d improved by %s", got.Kart, gain)
}
