package cardreader

import (
	"context"
	"sync"

	"github.com/polaris-vlt/polaris/cardauth"
)

// Fake is a Reader for cabinet tests: the test inserts and removes cards
// by method call. Authenticate answers with the card's key as a real card
// would (a nil key answers with a zero key: a cloned card). Events are
// buffered (64); a test that does not read them blocks the next change.
type Fake struct {
	Name string

	mu     sync.Mutex
	events chan Event
	id     string
	key    []byte
	in     bool
	lost   bool
	closed bool
}

// NewFake makes a fake reader named name.
func NewFake(name string) *Fake { return &Fake{Name: name, events: make(chan Event, 64)} }

func (f *Fake) Events() <-chan Event { return f.events }

// Insert puts the card with number id and card key key in the reader
// (removing any card that was in).
func (f *Fake) Insert(id string, key []byte) {
	f.mu.Lock()
	defer f.mu.Unlock()
	f.removeLocked()
	f.id, f.key, f.in = id, key, true
	f.send(CardInserted{Reader: f.Name, CardID: id})
}

// Remove takes the card out.
func (f *Fake) Remove() {
	f.mu.Lock()
	defer f.mu.Unlock()
	f.removeLocked()
}

func (f *Fake) removeLocked() {
	if f.in {
		f.in = false
		f.send(CardRemoved{Reader: f.Name, CardID: f.id})
	}
}

// Lose unplugs the reader; Back plugs it in again.
func (f *Fake) Lose() {
	f.mu.Lock()
	defer f.mu.Unlock()
	f.removeLocked()
	f.lost = true
	f.send(ReaderLost{Reader: f.Name, Err: ErrReaderLost})
}

func (f *Fake) Back() {
	f.mu.Lock()
	defer f.mu.Unlock()
	f.lost = false
	f.send(ReaderBack{Reader: f.Name})
}

func (f *Fake) send(e Event) {
	if !f.closed {
		f.events <- e
	}
}

func (f *Fake) Authenticate(ctx context.Context, challenge []byte) (Response, error) {
	f.mu.Lock()
	defer f.mu.Unlock()
	switch {
	case f.closed:
		return Response{}, ErrClosed
	case f.lost:
		return Response{}, ErrReaderLost
	case !f.in:
		return Response{}, ErrNoCard
	case len(challenge) < cardauth.MinChallenge || len(challenge) > cardauth.MaxChallenge:
		return Response{}, ErrChallenge
	}
	key := f.key
	if key == nil {
		key = make([]byte, 32)
	}
	mac, err := cardauth.Respond(key, f.id, challenge)
	if err != nil {
		return Response{}, err
	}
	return Response{CardID: f.id, MAC: mac}, nil
}

func (f *Fake) Close() error {
	f.mu.Lock()
	defer f.mu.Unlock()
	if !f.closed {
		f.closed = true
		close(f.events)
	}
	return nil
}

var _ Reader = (*Fake)(nil)
