package pcsc

import (
	"context"
	"errors"
	"fmt"
	"io"
	"log/slog"
	"strings"
	"sync"
	"time"

	"github.com/polaris-vlt/polaris/cardauth"
	"github.com/polaris-vlt/polaris/drivers/cardreader"
)

// DefaultSocket is pcscd's socket on Debian.
const DefaultSocket = "/run/pcscd/pcscd.comm"

// Config names the reader and pcscd.
type Config struct {
	Socket string // "" is DefaultSocket
	// Reader is the reader's name as pcscd lists it, or a prefix of it
	// (USB readers' names end in serial numbers and slot indexes): the
	// first reader that matches exactly, else by prefix, is used.
	Reader string
	// Timeout bounds each request to pcscd (default 5 s); RetryInterval
	// is the wait before reconnecting to a lost pcscd (default 1 s).
	Timeout       time.Duration
	RetryInterval time.Duration
	Log           *slog.Logger // nil: discard
}

// Reader implements cardreader.Reader.
type Reader struct {
	cfg    Config
	log    *slog.Logger
	events chan cardreader.Event
	stop   chan struct{}
	done   chan struct{}

	watchMu sync.Mutex
	watch   *Conn

	opMu sync.Mutex // one card exchange at a time; guards ops, ctx
	ops  *Conn
	ctx  uint32

	stMu     sync.Mutex
	name     string // the matched reader's full name
	cardID   string // "" when no player card is in
	unknown  bool   // an unknown card is in (reported by UnknownCard)
	counter  uint32 // pcscd's event counter of the insertion last read
	seenSet  bool
	reread   bool // a card could not be read: look again
	retrying bool // and its failure was logged
	lost     bool
	closed   bool
}

// Open starts watching the reader. It does not fail when pcscd or the
// reader is missing: that is a ReaderLost event, and the reader is used
// when it comes.
func Open(cfg Config) (*Reader, error) {
	if cfg.Reader == "" {
		return nil, errors.New("pcsc: no reader name")
	}
	if cfg.Socket == "" {
		cfg.Socket = DefaultSocket
	}
	if cfg.Timeout <= 0 {
		cfg.Timeout = 5 * time.Second
	}
	if cfg.RetryInterval <= 0 {
		cfg.RetryInterval = time.Second
	}
	lg := cfg.Log
	if lg == nil {
		lg = slog.New(slog.NewTextHandler(io.Discard, nil))
	}
	r := &Reader{cfg: cfg, log: lg.With("reader", cfg.Reader), events: make(chan cardreader.Event, 16),
		stop: make(chan struct{}), done: make(chan struct{})}
	go r.run()
	return r, nil
}

func (r *Reader) Events() <-chan cardreader.Event { return r.events }

// Close stops the reader and closes Events.
func (r *Reader) Close() error {
	r.stMu.Lock()
	if r.closed {
		r.stMu.Unlock()
		return nil
	}
	r.closed = true
	r.stMu.Unlock()
	close(r.stop)
	r.watchMu.Lock()
	if r.watch != nil {
		r.watch.Close()
	}
	r.watchMu.Unlock()
	<-r.done
	r.opMu.Lock()
	if r.ops != nil {
		r.ops.Close()
		r.ops = nil
	}
	r.opMu.Unlock()
	return nil
}

func (r *Reader) emit(e cardreader.Event) {
	select {
	case r.events <- e:
	case <-r.stop:
	}
}

func (r *Reader) stopped() bool {
	select {
	case <-r.stop:
		return true
	default:
		return false
	}
}

// run is the watcher: it owns the reported state (name, card, lost).
func (r *Reader) run() {
	defer close(r.done)
	defer close(r.events)
	for !r.stopped() {
		c, err := Dial(r.cfg.Socket, r.cfg.Timeout)
		if err == nil {
			r.watchMu.Lock()
			if r.stopped() {
				c.Close()
			}
			r.watch = c
			r.watchMu.Unlock()
			err = r.watchLoop(c)
			c.Close()
			if errors.Is(err, errReread) {
				continue // a fresh registration reads the table again
			}
		}
		if r.stopped() {
			return
		}
		r.readerLost(err)
		select {
		case <-r.stop:
			return
		case <-time.After(r.cfg.RetryInterval):
		}
	}
}

func (r *Reader) watchLoop(c *Conn) error {
	for {
		states, err := c.Watch()
		if err != nil {
			return err
		}
		if err := r.update(states); err != nil {
			return err
		}
		for {
			changed, err := c.Next(r.cfg.RetryInterval)
			if err != nil {
				return err
			}
			if r.stopped() {
				return nil
			}
			if changed {
				break
			}
			r.stMu.Lock()
			reread := r.reread
			r.reread = false
			r.stMu.Unlock()
			if reread {
				// A card could not be read for a passing reason (pcscd
				// busy, the card held exclusively): pcscd will signal no
				// change for it, so look again after a quiet interval.
				return errReread
			}
		}
	}
}

var errReread = errors.New("pcsc: read the reader table again")

func (r *Reader) match(states []ReaderState) (ReaderState, bool) {
	for _, s := range states {
		if s.Name == r.cfg.Reader {
			return s, true
		}
	}
	for _, s := range states {
		if strings.HasPrefix(s.Name, r.cfg.Reader) {
			return s, true
		}
	}
	return ReaderState{}, false
}

func (r *Reader) readerLost(err error) {
	r.stMu.Lock()
	was := r.lost
	id, unknown := r.cardID, r.unknown
	r.lost, r.cardID, r.unknown, r.seenSet = true, "", false, false
	name := r.cfg.Reader
	r.stMu.Unlock()
	if id != "" || unknown {
		r.emit(cardreader.CardRemoved{Reader: name, CardID: id})
	}
	if !was {
		r.log.Warn("card reader lost", "err", err)
		r.emit(cardreader.ReaderLost{Reader: name, Err: err})
	}
}

// update compares pcscd's table with what was reported and reports the
// difference.
func (r *Reader) update(states []ReaderState) error {
	s, ok := r.match(states)
	if !ok {
		r.readerLost(fmt.Errorf("%w: %q not among pcscd's readers", cardreader.ErrReaderLost, r.cfg.Reader))
		return nil
	}
	r.stMu.Lock()
	wasLost, id, unknown, counter := r.lost, r.cardID, r.unknown, r.counter
	r.lost, r.name = false, s.Name
	r.stMu.Unlock()
	if wasLost {
		r.log.Info("card reader back", "name", s.Name)
		r.emit(cardreader.ReaderBack{Reader: s.Name})
	}
	if (id != "" || unknown) && (!s.Present() || s.Events != counter) { // out, or out and in again
		r.stMu.Lock()
		r.cardID, r.unknown = "", false
		r.stMu.Unlock()
		r.log.Info("card removed", "card", id)
		r.emit(cardreader.CardRemoved{Reader: s.Name, CardID: id})
		id = ""
	}
	if !s.Present() {
		r.stMu.Lock()
		r.retrying = false
		r.stMu.Unlock()
		return nil
	}
	if id != "" {
		return nil // the same card still in
	}
	if r.seenSet && s.Events == counter {
		return nil // this insertion was read already (an unknown card)
	}
	newID, err := r.identify(s.Name, s.Events)
	r.stMu.Lock()
	r.counter, r.seenSet = s.Events, true
	retrying := r.retrying
	r.retrying = err != nil && !errors.As(err, new(*cardreader.BadResponseError)) && !errors.Is(err, cardreader.ErrCardRemoved)
	r.stMu.Unlock()
	var bad *cardreader.BadResponseError
	switch {
	case err == nil:
		r.stMu.Lock()
		r.cardID = newID
		r.stMu.Unlock()
		r.log.Info("card inserted", "card", newID)
		r.emit(cardreader.CardInserted{Reader: s.Name, CardID: newID, ATR: s.ATR})
	case errors.As(err, &bad):
		r.stMu.Lock()
		r.unknown = true
		r.stMu.Unlock()
		r.log.Warn("unknown card", "atr", fmt.Sprintf("% X", s.ATR), "err", err)
		r.emit(cardreader.UnknownCard{Reader: s.Name, ATR: s.ATR, Reason: err.Error()})
	case errors.Is(err, cardreader.ErrCardRemoved):
		r.log.Info("card gone before it could be read", "err", err)
	default:
		r.stMu.Lock()
		r.seenSet, r.reread = false, true // read it again after RetryInterval
		r.stMu.Unlock()
		if retrying {
			r.log.Debug("card still not read", "err", err)
		} else {
			r.log.Warn("card not read, trying again", "err", err)
		}
	}
	return nil
}

// opConn is the connection for card exchanges, dialled when needed.
func (r *Reader) opConn() (*Conn, uint32, error) {
	if r.ops != nil {
		return r.ops, r.ctx, nil
	}
	c, err := Dial(r.cfg.Socket, r.cfg.Timeout)
	if err != nil {
		return nil, 0, fmt.Errorf("%w: %v", cardreader.ErrReaderLost, err)
	}
	ctx, err := c.EstablishContext()
	if err != nil {
		c.Close()
		return nil, 0, fmt.Errorf("%w: %v", cardreader.ErrReaderLost, err)
	}
	r.ops, r.ctx = c, ctx
	return c, ctx, nil
}

// exchange connects to the card in reader, takes it for itself, selects
// the applet and runs f; every PC/SC failure is mapped to the port's
// errors.
func (r *Reader) exchange(reader string, counter uint32, f func(tx func(apdu []byte) ([]byte, error)) error) error {
	r.opMu.Lock()
	defer r.opMu.Unlock()
	c, ctx, err := r.opConn()
	if err != nil {
		return err
	}
	card, err := c.Connect(ctx, reader, ShareShared, ProtocolT0|ProtocolT1)
	if errors.Is(err, ErrLost) { // a pcscd restarted since the last exchange: once more on a new connection
		r.dropOps()
		if c, ctx, err = r.opConn(); err != nil {
			return err
		}
		card, err = c.Connect(ctx, reader, ShareShared, ProtocolT0|ProtocolT1)
	}
	if err != nil {
		return r.mapErr(err)
	}
	defer c.Disconnect(card, LeaveCard)
	if err := c.BeginTransaction(card); err != nil {
		return r.mapErr(err)
	}
	defer c.EndTransaction(card, LeaveCard)
	tx := func(apdu []byte) ([]byte, error) {
		resp, err := c.Transmit(card, apdu)
		if err != nil {
			return nil, r.mapErr(err)
		}
		if len(resp) < 2 && r.cardLeft(c, counter) {
			// vpcd answers an exchange the card never finished with
			// nothing rather than an error.
			return nil, fmt.Errorf("%w: %d-byte answer and the card is gone", cardreader.ErrCardRemoved, len(resp))
		}
		return resp, nil
	}
	resp, err := tx(cardreader.SelectAPDU())
	if err != nil {
		return err
	}
	if err := cardreader.CheckSelect(resp); err != nil {
		return err
	}
	return f(tx)
}

func (r *Reader) mapErr(err error) error {
	var pe Error
	switch {
	case errors.As(err, &pe) && pe.CardGone():
		return fmt.Errorf("%w: %v", cardreader.ErrCardRemoved, err)
	case errors.As(err, &pe) && (pe == ErrUnknownReader || pe == ErrReaderUnavailable):
		return fmt.Errorf("%w: %v", cardreader.ErrReaderLost, err)
	case errors.Is(err, ErrLost):
		r.dropOps()
		return fmt.Errorf("%w: %v", cardreader.ErrReaderLost, err)
	}
	return err
}

func (r *Reader) dropOps() {
	if r.ops != nil {
		r.ops.Close()
		r.ops = nil
	}
}

// cardLeft says whether the card that was in reader has gone, waiting a
// little for pcscd's presence poll (every 400 ms) to see it.
func (r *Reader) cardLeft(c *Conn, counter uint32) bool {
	for i := 0; i < 12; i++ {
		states, err := c.ReaderStates()
		if err != nil {
			return true
		}
		s, ok := r.match(states)
		if !ok || !s.Present() || s.Events != counter {
			return true
		}
		time.Sleep(100 * time.Millisecond)
	}
	return false
}

func (r *Reader) identify(reader string, counter uint32) (string, error) {
	var id string
	err := r.exchange(reader, counter, func(tx func([]byte) ([]byte, error)) error {
		resp, err := tx(cardreader.GetIDAPDU())
		if err != nil {
			return err
		}
		id, err = cardreader.CheckGetID(resp)
		return err
	})
	return id, err
}

// Authenticate implements cardreader.Reader. The card must still give the
// number it gave at insertion: another number is a swap (ErrCardRemoved).
// ctx is checked before the exchange starts; once started, the exchange
// (a few short APDUs) is bounded by Config.Timeout per request instead,
// so it is never abandoned half-way with the card in a transaction.
func (r *Reader) Authenticate(ctx context.Context, challenge []byte) (cardreader.Response, error) {
	if len(challenge) < cardauth.MinChallenge || len(challenge) > cardauth.MaxChallenge {
		return cardreader.Response{}, cardreader.ErrChallenge
	}
	r.stMu.Lock()
	closed, lost, name, want, counter := r.closed, r.lost, r.name, r.cardID, r.counter
	r.stMu.Unlock()
	switch {
	case closed:
		return cardreader.Response{}, cardreader.ErrClosed
	case lost:
		return cardreader.Response{}, cardreader.ErrReaderLost
	case want == "":
		return cardreader.Response{}, cardreader.ErrNoCard
	}
	if err := ctx.Err(); err != nil {
		return cardreader.Response{}, err
	}
	var out cardreader.Response
	err := r.exchange(name, counter, func(tx func([]byte) ([]byte, error)) error {
		resp, err := tx(cardreader.GetIDAPDU())
		if err != nil {
			return err
		}
		id, err := cardreader.CheckGetID(resp)
		if err != nil {
			return err
		}
		if id != want {
			return fmt.Errorf("%w: card %s answered where %s was inserted", cardreader.ErrCardRemoved, id, want)
		}
		resp, err = tx(cardreader.AuthenticateAPDU(challenge))
		if err != nil {
			return err
		}
		mac, err := cardreader.CheckAuthenticate(resp)
		if err != nil {
			return err
		}
		out = cardreader.Response{CardID: id, MAC: mac}
		return nil
	})
	if err != nil {
		r.log.Warn("card authentication failed", "card", want, "err", err)
		return cardreader.Response{}, err
	}
	return out, nil
}

var _ cardreader.Reader = (*Reader)(nil)
