package cabinet

// Do runs fn on the loop and waits: tests read the loop's state
// consistently through it (a write goes through the cabinet's inputs).
func (c *Cabinet) Do(fn func()) { c.loop.do(fn) }
