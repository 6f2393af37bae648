package gpiotest

import (
	"fmt"
	"sync"

	"github.com/polaris-vlt/polaris/drivers/gpio"
)

// MeterStore keeps owed and pulsed units in memory, standing in for the
// ledger.
type MeterStore struct {
	mu     sync.Mutex
	owed   map[gpio.Meter]int64
	pulsed map[gpio.Meter]int64
	err    error
}

// NewMeterStore returns an empty store.
func NewMeterStore() *MeterStore {
	return &MeterStore{owed: map[gpio.Meter]int64{}, pulsed: map[gpio.Meter]int64{}}
}

// Commit records n more units owed to m, as the ledger does in the money
// step's transaction.
func (s *MeterStore) Commit(m gpio.Meter, n int64) {
	s.mu.Lock()
	defer s.mu.Unlock()
	s.owed[m] += n
}

// Fail makes every later call fail with err (nil to heal).
func (s *MeterStore) Fail(err error) {
	s.mu.Lock()
	defer s.mu.Unlock()
	s.err = err
}

// Owed implements gpio.MeterStore.
func (s *MeterStore) Owed(m gpio.Meter) (int64, error) {
	s.mu.Lock()
	defer s.mu.Unlock()
	if s.err != nil {
		return 0, s.err
	}
	return s.owed[m], nil
}

// Pulsed implements gpio.MeterStore; it refuses to pulse more than is owed.
func (s *MeterStore) Pulsed(m gpio.Meter, n int64) error {
	s.mu.Lock()
	defer s.mu.Unlock()
	if s.err != nil {
		return s.err
	}
	if n <= 0 || n > s.owed[m] {
		return fmt.Errorf("gpiotest: %d pulses recorded on meter %s, %d owed", n, m, s.owed[m])
	}
	s.owed[m] -= n
	s.pulsed[m] += n
	return nil
}

// PulsedTotal returns the units recorded as pulsed on m.
func (s *MeterStore) PulsedTotal(m gpio.Meter) int64 {
	s.mu.Lock()
	defer s.mu.Unlock()
	return s.pulsed[m]
}

var _ gpio.MeterStore = (*MeterStore)(nil)
