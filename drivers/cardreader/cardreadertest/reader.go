// Package cardreadertest is a player card reader for tests, beside the
// cardreader package as httptest is beside net/http: the test inserts and
// removes cards by method call. The cabinet binary does not link it.
package cardreadertest

import (
	"context"
	"sync"

	"github.com/polaris-vlt/polaris/cardauth"
	"github.com/polaris-vlt/polaris/drivers/cardreader"
)

// Reader is a cardreader.Reader for cabinet tests: the test inserts and removes cards
// by method call. Authenticate answers with the card's key as a real card
// would (a nil key answers with a zero key: a cloned card). Events are
// buffered (64); a test that does not read them blocks the next change.
type Reader struct {
	Name string

	mu     sync.Mutex
	events chan cardreader.Event
	id     string
	key    []byte
	in     bool
	lost   bool
	closed bool
}

// New makes a reader named name.
func New(name string) *Reader { return &Reader{Name: name, events: make(chan cardreader.Event, 64)} }

func (f *Reader) Events() <-chan cardreader.Event { return f.events }

// Insert puts the card with number id and card key key in the reader
// (removing any card that was in).
func (f *Reader) Insert(id string, key []byte) {
	f.mu.Lock()
	defer f.mu.Unlock()
	f.removeLocked()
	f.id, f.key, f.in = id, key, true
	f.send(cardreader.CardInserted{Reader: f.Name, CardID: id})
}

// Remove takes the card out.
func (f *Reader) Remove() {
	f.mu.Lock()
	defer f.mu.Unlock()
	f.removeLocked()
}

func (f *Reader) removeLocked() {
	if f.in {
		f.in = false
		f.send(cardreader.CardRemoved{Reader: f.Name, CardID: f.id})
	}
}

// Lose unplugs the reader; Back plugs it in again.
func (f *Reader) Lose() {
	f.mu.Lock()
	defer f.mu.Unlock()
	f.removeLocked()
	f.lost = true
	f.send(cardreader.ReaderLost{Reader: f.Name, Err: cardreader.ErrReaderLost})
}

func (f *Reader) Back() {
	f.mu.Lock()
	defer f.mu.Unlock()
	f.lost = false
	f.send(cardreader.ReaderBack{Reader: f.Name})
}

func (f *Reader) send(e cardreader.Event) {
	if !f.closed {
		f.events <- e
	}
}

func (f *Reader) Authenticate(ctx context.Context, challenge []byte) (cardreader.Response, error) {
	f.mu.Lock()
	defer f.mu.Unlock()
	switch {
	case f.closed:
		return cardreader.Response{}, cardreader.ErrClosed
	case f.lost:
		return cardreader.Response{}, cardreader.ErrReaderLost
	case !f.in:
		return cardreader.Response{}, cardreader.ErrNoCard
	case len(challenge) < cardauth.MinChallenge || len(challenge) > cardauth.MaxChallenge:
		return cardreader.Response{}, cardreader.ErrChallenge
	}
	key := f.key
	if key == nil {
		key = make([]byte, 32)
	}
	mac, err := cardauth.Respond(key, f.id, challenge)
	if err != nil {
		return cardreader.Response{}, err
	}
	return cardreader.Response{CardID: f.id, MAC: mac}, nil
}

func (f *Reader) Close() error {
	f.mu.Lock()
	defer f.mu.Unlock()
	if !f.closed {
		f.closed = true
		close(f.events)
	}
	return nil
}

var _ cardreader.Reader = (*Reader)(nil)
