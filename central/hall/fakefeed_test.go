package hall

import (
	"sync"

	"github.com/polaris-vlt/polaris/central/jackpot"
)

// FakeFeed is a Feed whose Board a test sets; every hall sees the same one.
type FakeFeed struct {
	mu   sync.Mutex
	b    jackpot.Board
	subs map[chan struct{}]struct{}
}

// NewFakeFeed starts with b.
func NewFakeFeed(b jackpot.Board) *FakeFeed {
	return &FakeFeed{b: b, subs: map[chan struct{}]struct{}{}}
}

// Set replaces the Board and signals every subscriber.
func (f *FakeFeed) Set(b jackpot.Board) {
	f.mu.Lock()
	defer f.mu.Unlock()
	f.b = b
	for ch := range f.subs {
		select {
		case ch <- struct{}{}:
		default:
		}
	}
}

// Subscribers counts open subscriptions (open event streams).
func (f *FakeFeed) Subscribers() int {
	f.mu.Lock()
	defer f.mu.Unlock()
	return len(f.subs)
}

func (f *FakeFeed) Board(string) jackpot.Board {
	f.mu.Lock()
	defer f.mu.Unlock()
	return f.b
}

func (f *FakeFeed) Subscribe() (<-chan struct{}, func()) {
	ch := make(chan struct{}, 1)
	f.mu.Lock()
	f.subs[ch] = struct{}{}
	f.mu.Unlock()
	var once sync.Once
	return ch, func() {
		once.Do(func() {
			f.mu.Lock()
			delete(f.subs, ch)
			close(ch)
			f.mu.Unlock()
		})
	}
}
