package cabinet

import (
	"context"
	"errors"

	"github.com/polaris-vlt/polaris/clock"
	"github.com/polaris-vlt/polaris/firmware/health"
	"github.com/polaris-vlt/polaris/firmware/ledger"
)

// The self-tests (check 10) run at start-up, before the loop takes its
// first event, and every health.SelfTestEvery (24 h) after, counted on the
// local clock. The cabinet's own run on the loop: the critical memory (the
// ledger's Verify: both copies against memory, their SQLite check and
// chain) and the devices' presence (a configured acceptor or printer its
// driver no longer hears). Config.SelfTests (the software digests against
// the signed manifest, from the start-up gate) run off the loop. Until the
// start-up run has reported, no game and no money starts. A failure is a
// malfunction: a tilt only the technician's key clears (play, cash-out and
// money in stop), its event logged and, through the outbox, reported to
// the central system.

// tiltSelfTest is the tilt of a failed self-test.
const tiltSelfTest = "self_test"

type selfTestState struct {
	sched   health.SelfTestSchedule
	running bool
	started bool // the start-up run has reported
}

type selfTestReply struct{ own, other error }

func (selfTestReply) event() {}

// tickSelfTest starts a run of the self-tests when one is due.
func (c *Cabinet) tickSelfTest() {
	st := &c.selfTest
	now := clock.Raw(c.cfg.Clock).Now()
	if st.running || !st.sched.Due(now) {
		return
	}
	st.sched.Started(now)
	st.running = true
	own := health.RunSelfTests(c.loop.ctx, c.ownSelfTests())
	if len(c.cfg.Software.SelfTests) == 0 {
		c.selfTestDone(selfTestReply{own: own})
		return
	}
	others := c.cfg.Software.SelfTests
	// No deadline: the software's digests take as long as they take.
	c.loop.background(func(ctx context.Context) Event {
		return selfTestReply{own: own, other: health.RunSelfTests(ctx, others)}
	})
}

func (c *Cabinet) ownSelfTests() []health.SelfTest {
	ts := []health.SelfTest{{Name: "critical_memory", Run: func(context.Context) error {
		_, err := c.led.Verify("self_test")
		if errors.Is(err, ledger.ErrRAMError) {
			c.cond.ramFailed()
		}
		return err
	}}}
	present := func(key, what string, configured bool) health.SelfTest {
		return health.SelfTest{Name: key, Run: func(context.Context) error {
			if t, ok := c.cond.tilts[key]; configured && ok && t.reason == what+": communication lost" {
				return errors.New("not answering")
			}
			return nil
		}}
	}
	return append(ts, present("acceptor", "acceptor", c.cfg.Acceptor != nil), present("printer", "printer", c.cfg.Printer != nil))
}

func (c *Cabinet) selfTestDone(e selfTestReply) {
	st := &c.selfTest
	st.running, st.started = false, true
	var failed health.SelfTestError
	for _, err := range []error{e.own, e.other} {
		var fe health.SelfTestError
		if errors.As(err, &fe) {
			failed = append(failed, fe...)
		}
	}
	if failed == nil {
		c.cfg.Hooks.Logf("cabinet: self-tests passed (run %d)", st.sched.Runs())
		return
	}
	c.setTilt(tiltSelfTest, failed.Error(), true)
}

// starting: the start-up self-tests have not reported yet.
func (st *selfTestState) starting() bool { return !st.started }
