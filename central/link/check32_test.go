package link_test

// Check 32 (standards.md §2): a bit-flipped or replayed message on the link
// is refused.
//
// Two layers refuse. On the wire every message (outcome, Risk, voucher,
// redemption, events, meters, recall data) travels inside mutual TLS 1.3,
// whose AEAD refuses any flipped bit of a record: the connection is dropped
// and the idempotent call repeated on a new one
// (TestCheck32BitFlippedOnTheWireIsRefusedByTLS). Above TLS the outcome and
// Risk bodies are signed by the central system's Ed25519 key and checked by
// link.VerifyOutcome / link.VerifyRisk against what this cabinet asked:
// every single flipped bit of a real body or signature is refused, and a
// genuine body replayed for another round, step, choice or cabinet is
// refused (TestCheck32SignedBodiesRefuseBitFlipsAndReplays).

import (
	"bytes"
	"context"
	"crypto/ed25519"
	"encoding/binary"
	"errors"
	"io"
	"net"
	"sync"
	"sync/atomic"
	"testing"

	"github.com/polaris-vlt/polaris/central/internal/testenv"
	"github.com/polaris-vlt/polaris/central/link"
	"github.com/polaris-vlt/polaris/engine"
)

// everyBitFlipped calls f with a copy of b for each single bit flipped.
func everyBitFlipped(b []byte, f func(i int, flipped []byte)) {
	for i := 0; i < 8*len(b); i++ {
		c := bytes.Clone(b)
		c[i/8] ^= 1 << (i % 8)
		f(i, c)
	}
}

func TestCheck32SignedBodiesRefuseBitFlipsAndReplays(t *testing.T) {
	e := testenv.Start(t, nil)
	c := e.Client("cab-1", nil)
	pub := e.Key.Public().(ed25519.PublicKey)
	game, model := testenv.GameID, testenv.TheGame.ModelID()

	// Real signed bodies: a lost round, then a won round and its Risk card
	// (each lost round committed first: the central system keeps one open).
	var lost, won *link.Outcome
	for n := uint64(1); n < 200 && won == nil; n++ {
		o, err := c.RequestOutcome(ctx(t), n, game, model, 10)
		if err != nil {
			t.Fatal(err)
		}
		if o.Result.Total > 0 && lost != nil {
			won = o
			break
		}
		if o.Result.Total == 0 && lost == nil {
			lost = o
		}
		if err := c.CommitOutcome(ctx(t), n); err != nil {
			t.Fatal(err)
		}
	}
	if lost == nil || won == nil {
		t.Fatal("no loss followed by a win in 199 rounds")
	}
	card, err := c.RequestRiskStep(ctx(t), won.Round, 1, engine.Red)
	if err != nil {
		t.Fatal(err)
	}
	reqOf := func(o *link.Outcome) link.OutcomeRequest {
		return link.OutcomeRequest{Round: o.Round, Game: game, ModelID: model, Stake: 10}
	}

	// The genuine messages pass: what follows can only fail by the change made.
	for _, o := range []*link.Outcome{lost, won} {
		if _, err := link.VerifyOutcome(pub, "cab-1", reqOf(o), o.Body, o.Signature); err != nil {
			t.Fatalf("genuine outcome of round %d refused: %v", o.Round, err)
		}
	}
	if _, err := link.VerifyRisk(pub, "cab-1", won.Round, 1, engine.Red, card.Body, card.Sig); err != nil {
		t.Fatalf("genuine risk card refused: %v", err)
	}

	var se *link.SignatureError
	refusedSig := func(what string, i int, err error) {
		t.Helper()
		if !errors.As(err, &se) {
			t.Fatalf("%s with bit %d flipped: %v, want a signature refusal", what, i, err)
		}
	}
	flips := 0
	for _, o := range []*link.Outcome{lost, won} {
		everyBitFlipped(o.Body, func(i int, b []byte) {
			_, err := link.VerifyOutcome(pub, "cab-1", reqOf(o), b, o.Signature)
			refusedSig("outcome body", i, err)
			flips++
		})
		everyBitFlipped(o.Signature, func(i int, s []byte) {
			_, err := link.VerifyOutcome(pub, "cab-1", reqOf(o), o.Body, s)
			refusedSig("outcome signature", i, err)
			flips++
		})
	}
	everyBitFlipped(card.Body, func(i int, b []byte) {
		_, err := link.VerifyRisk(pub, "cab-1", won.Round, 1, engine.Red, b, card.Sig)
		refusedSig("risk card body", i, err)
		flips++
	})
	everyBitFlipped(card.Sig, func(i int, s []byte) {
		_, err := link.VerifyRisk(pub, "cab-1", won.Round, 1, engine.Red, card.Body, s)
		refusedSig("risk card signature", i, err)
		flips++
	})
	t.Logf("%d single-bit flips, every one refused", flips)

	// Replays: genuine, correctly signed bytes offered for something else.
	var be *link.BodyError
	for _, r := range []struct {
		name, field string
		err         error
	}{
		{"round 1's outcome for the next round", "round", func() error {
			req := reqOf(lost)
			req.Round = won.Round + 1
			_, err := link.VerifyOutcome(pub, "cab-1", req, lost.Body, lost.Signature)
			return err
		}()},
		{"the won round's outcome for an earlier round", "round", func() error {
			req := reqOf(won)
			req.Round = lost.Round
			_, err := link.VerifyOutcome(pub, "cab-1", req, won.Body, won.Signature)
			return err
		}()},
		{"an outcome for another stake", "stake", func() error {
			req := reqOf(lost)
			req.Stake = 50
			_, err := link.VerifyOutcome(pub, "cab-1", req, lost.Body, lost.Signature)
			return err
		}()},
		{"cab-1's outcome at cab-2", "cabinet", func() error {
			_, err := link.VerifyOutcome(pub, "cab-2", reqOf(lost), lost.Body, lost.Signature)
			return err
		}()},
		{"the risk card for another round", "round", func() error {
			_, err := link.VerifyRisk(pub, "cab-1", won.Round+1, 1, engine.Red, card.Body, card.Sig)
			return err
		}()},
		{"the risk card of step 1 as step 2", "step", func() error {
			_, err := link.VerifyRisk(pub, "cab-1", won.Round, 2, engine.Red, card.Body, card.Sig)
			return err
		}()},
		{"the risk card for the other colour", "choice", func() error {
			_, err := link.VerifyRisk(pub, "cab-1", won.Round, 1, engine.Black, card.Body, card.Sig)
			return err
		}()},
		{"a risk card as an outcome", "", func() error {
			_, err := link.VerifyOutcome(pub, "cab-1", reqOf(won), card.Body, card.Sig)
			return err
		}()},
		{"an outcome as a risk card", "", func() error {
			_, err := link.VerifyRisk(pub, "cab-1", won.Round, 1, engine.Red, won.Body, won.Signature)
			return err
		}()},
	} {
		if !errors.As(r.err, &be) || (r.field != "" && be.Field != r.field) {
			t.Errorf("%s: %v, want a body refusal on %q", r.name, r.err, r.field)
		}
	}
}

// flipProxy forwards TCP to the server and, once armed, flips one bit in
// the payload of the next TLS record the server sends.
type flipProxy struct {
	l       net.Listener
	target  string
	armed   atomic.Bool
	flipped atomic.Int32
	conns   atomic.Int32
	mu      sync.Mutex
	open    []net.Conn
}

func newFlipProxy(t *testing.T, target string) *flipProxy {
	l, err := net.Listen("tcp", "127.0.0.1:0")
	if err != nil {
		t.Fatal(err)
	}
	p := &flipProxy{l: l, target: target}
	go p.accept()
	t.Cleanup(func() {
		l.Close()
		p.mu.Lock()
		for _, c := range p.open {
			c.Close()
		}
		p.mu.Unlock()
	})
	return p
}

func (p *flipProxy) accept() {
	for {
		c, err := p.l.Accept()
		if err != nil {
			return
		}
		s, err := net.Dial("tcp", p.target)
		if err != nil {
			c.Close()
			continue
		}
		p.conns.Add(1)
		p.mu.Lock()
		p.open = append(p.open, c, s)
		p.mu.Unlock()
		go func() { io.Copy(s, c); s.Close() }()
		go p.records(c, s)
	}
}

// records copies server -> client record by record (5-byte TLS header:
// type, version, length).
func (p *flipProxy) records(c, s net.Conn) {
	defer c.Close()
	hdr := make([]byte, 5)
	for {
		if _, err := io.ReadFull(s, hdr); err != nil {
			return
		}
		body := make([]byte, binary.BigEndian.Uint16(hdr[3:5]))
		if _, err := io.ReadFull(s, body); err != nil {
			return
		}
		// 23: application data, the type of every encrypted TLS 1.3 record.
		if hdr[0] == 23 && len(body) > 0 && p.armed.CompareAndSwap(true, false) {
			body[len(body)/2] ^= 0x10
			p.flipped.Add(1)
		}
		if _, err := c.Write(append(bytes.Clone(hdr), body...)); err != nil {
			return
		}
	}
}

func TestCheck32BitFlippedOnTheWireIsRefusedByTLS(t *testing.T) {
	e := testenv.Start(t, nil)
	p := newFlipProxy(t, e.Addr)
	c := e.Client("cab-1", func(cfg *link.Config) {
		cfg.Dialer = func(ctx context.Context, _ string) (net.Conn, error) {
			var d net.Dialer
			return d.DialContext(ctx, "tcp", p.l.Addr().String())
		}
	})
	if _, err := c.Hello(ctx(t)); err != nil {
		t.Fatal(err)
	}
	if p.conns.Load() != 1 {
		t.Fatalf("%d connections before the flip, want 1", p.conns.Load())
	}
	p.armed.Store(true)
	o, err := c.RequestOutcome(ctx(t), 1, testenv.GameID, testenv.TheGame.ModelID(), 10)
	if p.flipped.Load() != 1 {
		t.Fatalf("%d records flipped, want 1", p.flipped.Load())
	}
	// The flipped record was refused: its connection was given up and the
	// call repeated on a new one, which delivered the genuine body.
	if p.conns.Load() < 2 {
		t.Fatalf("a flipped TLS record was accepted: still %d connection(s)", p.conns.Load())
	}
	if err != nil {
		t.Fatalf("the repeated call: %v", err)
	}
	if !bytes.Equal(o.Body, storedBody(t, e, "cab-1", 1)) {
		t.Fatal("the body received is not the one the central system stored")
	}
}
