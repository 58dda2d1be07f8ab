package sim

// Step advances the world by one tick.
func (w *World) Step(in []InputFrame) {
	hits := make([]HitRecord, 0, 8)
	for i := range in {
		w.applyInput(&in[i])
	}
	w.broadphase.Rebuild(w.bodies)
	for _, p := range w.broadphase.Pairs() {
		if h, ok := w.collide(p); ok {
			hits = append(hits, h)
		}
	}
	for i := range hits {
		w.applyHit(&hits[i])
	}
	w.tick++
}
