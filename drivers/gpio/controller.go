package gpio

import (
	"context"
	"errors"
	"fmt"
	"sync"
	"time"

	"github.com/polaris-vlt/polaris/clock"
)

// InputWiring connects an Input to a line of the input bank.
type InputWiring struct {
	Input     Input
	Line      string
	Pull      Pull
	ActiveLow bool          // the input is active when the line is low
	Debounce  time.Duration // 0: the Config default for the input's kind
}

// OutputWiring connects an output to a line of the output bank.
type OutputWiring struct {
	Line      string
	ActiveLow bool // the output is on when the line is low
}

// TowerTier is one colour of the tower light.
type TowerTier struct {
	Colour Colour
	OutputWiring
}

// MeterWiring connects a hard meter's coil to an output line.
type MeterWiring struct {
	Meter Meter
	OutputWiring
}

// SenseWiring is the meter sense input: active while a coil draws current.
type SenseWiring struct {
	Line      string
	Pull      Pull
	ActiveLow bool
}

// Defaults used when a Config leaves a duration zero.
const (
	DefaultButtonDebounce = 20 * time.Millisecond
	DefaultSwitchDebounce = 50 * time.Millisecond // keys and doors
	DefaultMeterPulse     = 50 * time.Millisecond
	DefaultMeterGap       = 50 * time.Millisecond
	// MaxIdleWait bounds every wait of Run, so Run notices a cancelled
	// context and polls a bank whose edges were missed.
	MaxIdleWait = 50 * time.Millisecond
)

// Config is what a Controller drives. The board package builds it from a
// profile.
type Config struct {
	Inputs     []InputWiring
	Lamps      map[Input]OutputWiring // one lamp per button
	Tower      []TowerTier            // bottom to top
	Meters     []MeterWiring
	MeterSense *SenseWiring // nil: pulses are not confirmed

	ButtonDebounce time.Duration
	SwitchDebounce time.Duration
	MeterPulse     time.Duration
	MeterGap       time.Duration

	Clock clock.Clock // nil: clock.System
	Store MeterStore  // required when Meters is not empty
	Sink  func(Event) // receives every event, from the goroutine calling Step
	// Heartbeat, when set, is called by Run after every Step (the inputs
	// read, patterns and meters served): proof for the watchdog that the
	// loop is not hung. A bank Read or WaitEdge that never returns stops
	// the beats; so does Run ending on a failure. Keep it cheap.
	Heartbeat func()
}

// InputLines lists the input-bank lines the config needs, inputs first, then
// the meter sense line.
func (c *Config) InputLines() []LineSpec {
	var out []LineSpec
	for _, w := range c.Inputs {
		out = append(out, LineSpec{Name: w.Line, Pull: w.Pull, Use: inputUse(w.Input)})
	}
	if c.MeterSense != nil {
		out = append(out, LineSpec{Name: c.MeterSense.Line, Pull: c.MeterSense.Pull, Use: "meter sense"})
	}
	return out
}

func inputUse(in Input) string {
	if in.Kind() == KindButton {
		return "button " + in.String()
	}
	return in.String()
}

// OutputLines lists the output-bank lines the config needs: lamps in button
// order, tower tiers, meter coils.
func (c *Config) OutputLines() []LineSpec {
	var out []LineSpec
	for _, b := range Buttons() {
		if w, ok := c.Lamps[b]; ok {
			out = append(out, LineSpec{Name: w.Line, Use: OutputID{Lamp: b}.String()})
		}
	}
	for _, t := range c.Tower {
		out = append(out, LineSpec{Name: t.Line, Use: OutputID{Colour: t.Colour}.String()})
	}
	for _, m := range c.Meters {
		out = append(out, LineSpec{Name: m.Line, Use: OutputID{Meter: m.Meter}.String()})
	}
	return out
}

// OutputID names an output: a button lamp, a tower tier or a meter coil.
type OutputID struct {
	Lamp   Input  // set for a button lamp
	Colour Colour // set for a tower tier
	Meter  Meter  // set for a meter coil
}

func (o OutputID) String() string {
	switch {
	case o.Lamp != 0:
		return "lamp " + o.Lamp.String()
	case o.Colour != "":
		return "tower " + string(o.Colour)
	default:
		return "meter " + string(o.Meter)
	}
}

// OutputStatus is the software state of one output.
type OutputStatus struct {
	ID      OutputID
	Line    string
	Pattern string // lamps and tower; "" for meters
	On      bool   // level last written
}

type lampOut struct {
	id      OutputID
	bit     int
	pattern Pattern
}

// Controller runs the cabinet's GPIO: it debounces inputs, runs lamp
// patterns and pulses meters. Step does one round of work at the clock's
// now; Run calls Step in a loop. Setters are safe from any goroutine.
type Controller struct {
	in    InputBank
	out   OutputBank
	clock clock.Clock
	sink  func(Event)
	beat  func() // nil: none
	epoch time.Time

	stepMu sync.Mutex // one Step at a time, so events keep their order

	mu           sync.Mutex
	deb          *Debouncer
	inputAt      []Input // input-bank bit → input (0 for none)
	inActiveLow  Bits
	senseBit     int // -1: no sense line
	lamps        []*lampOut
	pulser       pulser
	outActiveLow Bits
	outLines     []string
	written      Bits // physical levels last written
	closed       bool
	failed       error
	closing      bool // Close has begun: Run must stop
	quit         chan struct{}
	runs         sync.WaitGroup // Run calls in progress
}

// New checks cfg against the banks, writes every output off and returns a
// Controller. Nothing is left half-configured on error.
func New(cfg Config, in InputBank, out OutputBank) (*Controller, error) {
	if cfg.Clock == nil {
		cfg.Clock = clock.System{}
	}
	if cfg.Sink == nil {
		cfg.Sink = func(Event) {}
	}
	def := func(d, v time.Duration) time.Duration {
		if d == 0 {
			return v
		}
		return d
	}
	cfg.ButtonDebounce = def(cfg.ButtonDebounce, DefaultButtonDebounce)
	cfg.SwitchDebounce = def(cfg.SwitchDebounce, DefaultSwitchDebounce)
	cfg.MeterPulse = def(cfg.MeterPulse, DefaultMeterPulse)
	cfg.MeterGap = def(cfg.MeterGap, DefaultMeterGap)
	for _, d := range []time.Duration{cfg.ButtonDebounce, cfg.SwitchDebounce, cfg.MeterPulse, cfg.MeterGap} {
		if d < 0 {
			return nil, fmt.Errorf("gpio: negative duration %v in config", d)
		}
	}
	if len(cfg.Meters) > 0 && cfg.Store == nil {
		return nil, errors.New("gpio: meters configured without a MeterStore")
	}

	inIdx, err := indexLines("input", in.Lines())
	if err != nil {
		return nil, err
	}
	outIdx, err := indexLines("output", out.Lines())
	if err != nil {
		return nil, err
	}
	c := &Controller{in: in, out: out, clock: cfg.Clock, sink: cfg.Sink, beat: cfg.Heartbeat, senseBit: -1, outLines: out.Lines(), quit: make(chan struct{})}
	c.inputAt = make([]Input, len(inIdx))
	windows := make([]time.Duration, len(inIdx))
	seenIn := map[Input]bool{}
	usedIn := map[int]string{}
	for _, w := range cfg.Inputs {
		if !w.Input.Valid() {
			return nil, fmt.Errorf("gpio: unknown input %d", w.Input)
		}
		if seenIn[w.Input] {
			return nil, fmt.Errorf("gpio: input %s wired twice", w.Input)
		}
		seenIn[w.Input] = true
		bit, ok := inIdx[w.Line]
		if !ok {
			return nil, fmt.Errorf("gpio: input %s: line %q is not in the input bank", w.Input, w.Line)
		}
		if prev, dup := usedIn[bit]; dup {
			return nil, fmt.Errorf("gpio: line %q used by %s and %s", w.Line, prev, w.Input)
		}
		usedIn[bit] = w.Input.String()
		c.inputAt[bit] = w.Input
		if w.ActiveLow {
			c.inActiveLow |= Bits(1) << bit
		}
		switch {
		case w.Debounce < 0:
			return nil, fmt.Errorf("gpio: input %s: negative debounce %v", w.Input, w.Debounce)
		case w.Debounce != 0:
			windows[bit] = w.Debounce
		case w.Input.Kind() == KindButton:
			windows[bit] = cfg.ButtonDebounce
		default:
			windows[bit] = cfg.SwitchDebounce
		}
	}
	if s := cfg.MeterSense; s != nil {
		bit, ok := inIdx[s.Line]
		if !ok {
			return nil, fmt.Errorf("gpio: meter sense: line %q is not in the input bank", s.Line)
		}
		if prev, dup := usedIn[bit]; dup {
			return nil, fmt.Errorf("gpio: line %q used by %s and the meter sense", s.Line, prev)
		}
		c.senseBit = bit
		if s.ActiveLow {
			c.inActiveLow |= Bits(1) << bit
		}
	}
	c.deb = NewDebouncer(windows)

	usedOut := map[int]string{}
	claim := func(id OutputID, w OutputWiring) (int, error) {
		bit, ok := outIdx[w.Line]
		if !ok {
			return 0, fmt.Errorf("gpio: %s: line %q is not in the output bank", id, w.Line)
		}
		if prev, dup := usedOut[bit]; dup {
			return 0, fmt.Errorf("gpio: line %q used by %s and %s", w.Line, prev, id)
		}
		usedOut[bit] = id.String()
		if w.ActiveLow {
			c.outActiveLow |= Bits(1) << bit
		}
		return bit, nil
	}
	for _, b := range Buttons() {
		w, ok := cfg.Lamps[b]
		if !ok {
			continue
		}
		id := OutputID{Lamp: b}
		bit, err := claim(id, w)
		if err != nil {
			return nil, err
		}
		c.lamps = append(c.lamps, &lampOut{id: id, bit: bit, pattern: Off})
	}
	for b := range cfg.Lamps {
		if b.Kind() != KindButton {
			return nil, fmt.Errorf("gpio: lamp for %s, which is not a button", b)
		}
	}
	seenColour := map[Colour]bool{}
	for _, t := range cfg.Tower {
		if !t.Colour.Valid() || seenColour[t.Colour] {
			return nil, fmt.Errorf("gpio: tower tier %q unknown or repeated", t.Colour)
		}
		seenColour[t.Colour] = true
		id := OutputID{Colour: t.Colour}
		bit, err := claim(id, t.OutputWiring)
		if err != nil {
			return nil, err
		}
		c.lamps = append(c.lamps, &lampOut{id: id, bit: bit, pattern: Off})
	}
	c.pulser = pulser{store: cfg.Store, pulse: cfg.MeterPulse, gap: cfg.MeterGap, hasSense: cfg.MeterSense != nil, cur: -1}
	for _, m := range cfg.Meters {
		if !m.Meter.Valid() || c.pulser.find(m.Meter) != nil {
			return nil, fmt.Errorf("gpio: meter %q unknown or repeated", m.Meter)
		}
		bit, err := claim(OutputID{Meter: m.Meter}, m.OutputWiring)
		if err != nil {
			return nil, err
		}
		// dirty: read what is owed from before a power cut at the first Step
		c.pulser.meters = append(c.pulser.meters, &meterState{id: m.Meter, bit: bit, dirty: true})
	}

	c.epoch = c.clock.Now()
	c.written = c.outActiveLow // every output off
	all := Bits(1)<<len(c.outLines) - 1
	if len(c.outLines) == MaxLines {
		all = ^Bits(0)
	}
	if all != 0 {
		if err := out.Write(c.written, all); err != nil {
			return nil, fmt.Errorf("gpio: writing outputs off: %w", err)
		}
	}
	return c, nil
}

func indexLines(kind string, lines []string) (map[string]int, error) {
	if len(lines) > MaxLines {
		return nil, fmt.Errorf("gpio: %d %s lines, at most %d per bank", len(lines), kind, MaxLines)
	}
	idx := make(map[string]int, len(lines))
	for i, l := range lines {
		if _, dup := idx[l]; dup {
			return nil, fmt.Errorf("gpio: %s line %q appears twice in the bank", kind, l)
		}
		idx[l] = i
	}
	return idx, nil
}

func (c *Controller) lamp(id OutputID) *lampOut {
	for _, l := range c.lamps {
		if l.id == id {
			return l
		}
	}
	return nil
}

func (c *Controller) setPattern(id OutputID, p Pattern) error {
	if err := p.Validate(); err != nil {
		return err
	}
	c.mu.Lock()
	defer c.mu.Unlock()
	l := c.lamp(id)
	if l == nil {
		return fmt.Errorf("gpio: no %s on this cabinet", id)
	}
	l.pattern = p
	return nil
}

// SetLamp sets the pattern of a button's lamp. It takes effect at the next
// Step.
func (c *Controller) SetLamp(button Input, p Pattern) error {
	return c.setPattern(OutputID{Lamp: button}, p)
}

// SetTower sets the pattern of one tower-light tier.
func (c *Controller) SetTower(colour Colour, p Pattern) error {
	return c.setPattern(OutputID{Colour: colour}, p)
}

// Kick tells the Controller that the store holds new units owed to m (or
// that a failed meter should be retried). The count is re-read from the
// store by the next Step, never taken from the caller.
func (c *Controller) Kick(m Meter) error {
	c.mu.Lock()
	defer c.mu.Unlock()
	ms := c.pulser.find(m)
	if ms == nil {
		return fmt.Errorf("gpio: no meter %q on this cabinet", m)
	}
	ms.dirty, ms.failed = true, false
	return nil
}

// TestPulse pulses meter m once for a meter test (test mode), before any
// units owed: the pulse is not recorded in the MeterStore, so what the
// meter owes for money is unchanged and the meter reads one more than the
// money it counts. The MeterPulsed event has Test set; a failed meter is
// retried, as with Kick.
func (c *Controller) TestPulse(m Meter) error {
	c.mu.Lock()
	defer c.mu.Unlock()
	ms := c.pulser.find(m)
	if ms == nil {
		return fmt.Errorf("gpio: no meter %q on this cabinet", m)
	}
	ms.test++
	ms.failed = false
	return nil
}

// Meters lists the hard meters wired, in wiring order.
func (c *Controller) Meters() []Meter {
	var out []Meter
	for _, m := range c.pulser.meters {
		out = append(out, m.id)
	}
	return out
}

// Inputs returns the debounced state of every wired input.
func (c *Controller) Inputs() map[Input]bool {
	c.mu.Lock()
	defer c.mu.Unlock()
	st := c.deb.Stable()
	out := map[Input]bool{}
	for bit, in := range c.inputAt {
		if in != 0 {
			out[in] = st&(Bits(1)<<bit) != 0
		}
	}
	return out
}

// Outputs returns the software state of every output.
func (c *Controller) Outputs() []OutputStatus {
	c.mu.Lock()
	defer c.mu.Unlock()
	logical := c.written ^ c.outActiveLow
	var out []OutputStatus
	for _, l := range c.lamps {
		out = append(out, OutputStatus{ID: l.id, Line: c.outLines[l.bit], Pattern: l.pattern.Name, On: logical&(Bits(1)<<l.bit) != 0})
	}
	for _, m := range c.pulser.meters {
		out = append(out, OutputStatus{ID: OutputID{Meter: m.id}, Line: c.outLines[m.bit], On: logical&(Bits(1)<<m.bit) != 0})
	}
	return out
}

// Owed returns the units the Controller believes each meter still owes.
func (c *Controller) Owed() map[Meter]int64 {
	c.mu.Lock()
	defer c.mu.Unlock()
	out := map[Meter]int64{}
	for _, m := range c.pulser.meters {
		out[m.id] = m.owed
	}
	return out
}

// ErrClosed is returned by Step after Close.
var ErrClosed = errors.New("gpio: controller closed")

// Step samples the inputs, confirms debounced edges, advances lamp patterns
// and meter pulses to the clock's now, writes the outputs that changed and
// delivers the events to the sink. It returns the time of the next
// scheduled change (zero if none). A bank error is reported as BankFailed
// and returned; the Controller then refuses further Steps.
func (c *Controller) Step() (time.Time, error) {
	c.stepMu.Lock()
	defer c.stepMu.Unlock()
	evs, next, err := c.step()
	for _, e := range evs {
		c.sink(e)
	}
	return next, err
}

func (c *Controller) step() ([]Event, time.Time, error) {
	c.mu.Lock()
	defer c.mu.Unlock()
	if c.closed {
		return nil, time.Time{}, ErrClosed
	}
	if c.failed != nil {
		return nil, time.Time{}, c.failed
	}
	now := c.clock.Now()
	raw, err := c.in.Read()
	if err != nil {
		return c.fail(now, fmt.Errorf("reading inputs: %w", err))
	}
	logical := raw ^ c.inActiveLow

	var evs []Event
	for _, e := range c.deb.Sample(now, logical, nil) {
		if in := c.inputAt[e.Line]; in != 0 {
			evs = append(evs, InputChanged{Input: in, Active: e.Level, At: e.At})
		}
	}
	sense := c.senseBit >= 0 && logical&(Bits(1)<<c.senseBit) != 0
	evs = c.pulser.step(now, sense, evs)

	var want Bits
	next, haveNext := c.pulser.deadline()
	if t, ok := c.deb.Deadline(); ok && (!haveNext || t.Before(next)) {
		next, haveNext = t, true
	}
	for _, l := range c.lamps {
		on, in := l.pattern.At(now.Sub(c.epoch))
		if on {
			want |= Bits(1) << l.bit
		}
		if in > 0 {
			if t := now.Add(in); !haveNext || t.Before(next) {
				next, haveNext = t, true
			}
		}
	}
	for i, m := range c.pulser.meters {
		if c.pulser.coil(i) {
			want |= Bits(1) << m.bit
		}
	}
	phys := want ^ c.outActiveLow
	if mask := phys ^ c.written; mask != 0 {
		if err := c.out.Write(phys, mask); err != nil {
			evs2, t, err := c.fail(now, fmt.Errorf("writing outputs: %w", err))
			return append(evs, evs2...), t, err
		}
		c.written = phys
	}
	if !haveNext {
		next = time.Time{}
	}
	return evs, next, nil
}

func (c *Controller) fail(now time.Time, err error) ([]Event, time.Time, error) {
	c.failed = err
	return []Event{BankFailed{Err: err, At: now}}, time.Time{}, err
}

// Run calls Step until ctx is done, Close is called (nil) or a bank fails
// (its error), sleeping in the input bank's WaitEdge (never longer than
// MaxIdleWait) so an edge wakes it at once.
func (c *Controller) Run(ctx context.Context) error {
	c.mu.Lock()
	if c.closing {
		c.mu.Unlock()
		return ErrClosed
	}
	c.runs.Add(1)
	c.mu.Unlock()
	defer c.runs.Done()
	for {
		select {
		case <-ctx.Done():
			return nil
		case <-c.quit:
			return nil
		default:
		}
		next, err := c.Step()
		if err != nil {
			return err
		}
		if c.beat != nil {
			c.beat()
		}
		wait := MaxIdleWait
		if !next.IsZero() {
			if d := next.Sub(c.clock.Now()); d < wait {
				wait = d
			}
		}
		if wait < time.Millisecond {
			wait = time.Millisecond
		}
		if _, err := c.in.WaitEdge(wait); err != nil {
			c.mu.Lock()
			evs, _, err := c.fail(c.clock.Now(), fmt.Errorf("waiting for an edge: %w", err))
			c.mu.Unlock()
			for _, e := range evs {
				c.sink(e)
			}
			return err
		}
	}
}

// Close stops Run (waiting for it, at most MaxIdleWait), drives every
// output off (no coil left energised), then closes both banks.
func (c *Controller) Close() error {
	c.mu.Lock()
	if c.closing {
		c.mu.Unlock()
		return nil
	}
	c.closing = true
	close(c.quit)
	c.mu.Unlock()
	// The banks are closed only once no goroutine waits on them.
	c.runs.Wait()
	c.stepMu.Lock()
	defer c.stepMu.Unlock()
	c.mu.Lock()
	defer c.mu.Unlock()
	c.closed = true
	var errs []error
	if mask := c.written ^ c.outActiveLow; mask != 0 {
		errs = append(errs, c.out.Write(c.outActiveLow, mask))
	}
	errs = append(errs, c.in.Close(), c.out.Close())
	return errors.Join(errs...)
}
