package link_test

import (
	"bytes"
	"context"
	"crypto/ed25519"
	"crypto/rand"
	"errors"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"github.com/polaris-vlt/polaris/central/internal/testenv"
	"github.com/polaris-vlt/polaris/central/link"
	"github.com/polaris-vlt/polaris/central/pki"
	"github.com/polaris-vlt/polaris/central/proto/refusal"
	"github.com/polaris-vlt/polaris/central/server"
	"github.com/polaris-vlt/polaris/engine"
	"github.com/polaris-vlt/polaris/internal/poll"
)

func ctx(t *testing.T) context.Context {
	c, cancel := context.WithTimeout(context.Background(), poll.Scaled(20*time.Second))
	t.Cleanup(cancel)
	return c
}

func storedBody(t *testing.T, e *testenv.Env, cab string, n uint64) []byte {
	t.Helper()
	var b []byte
	if err := e.Server.DB().QueryRow(`SELECT body FROM rounds WHERE cabinet=? AND round=?`, cab, int64(n)).Scan(&b); err != nil {
		t.Fatalf("round %d of %s not stored: %v", n, cab, err)
	}
	return b
}

func TestRoundAskedTwiceIsTheSameRound(t *testing.T) {
	e := testenv.Start(t, nil)
	c := e.Client("cab-1", nil)
	info, err := c.Hello(ctx(t))
	if err != nil {
		t.Fatal(err)
	}
	if info.Cabinet != "cab-1" || info.Models[testenv.GameID] != testenv.TheGame.ModelID() {
		t.Fatalf("hello: %+v", info)
	}
	a, err := c.RequestOutcome(ctx(t), 1, testenv.GameID, testenv.TheGame.ModelID(), 10)
	if err != nil {
		t.Fatal(err)
	}
	if err := a.Mirror(); err != nil {
		t.Fatalf("mirror: %v", err)
	}
	for i := 0; i < 3; i++ {
		b, err := c.RequestOutcome(ctx(t), 1, testenv.GameID, testenv.TheGame.ModelID(), 10)
		if err != nil {
			t.Fatal(err)
		}
		if !bytes.Equal(a.Body, b.Body) || !bytes.Equal(a.Signature, b.Signature) {
			t.Fatal("a round asked again gave other bytes")
		}
	}
	if !bytes.Equal(storedBody(t, e, "cab-1", 1), a.Body) {
		t.Fatal("reply differs from the stored body")
	}
	if n := e.Count("rounds", ""); n != 1 {
		t.Fatalf("%d rounds stored, want 1", n)
	}
	// Another cabinet's round 1 is another round.
	o, err := e.Client("cab-2", nil).RequestOutcome(ctx(t), 1, testenv.GameID, testenv.TheGame.ModelID(), 10)
	if err != nil || o.Cabinet != "cab-2" {
		t.Fatalf("cab-2 round 1: %v %v", o, err)
	}
	if err := c.CommitOutcome(ctx(t), 1); err != nil {
		t.Fatal(err)
	}
	if err := c.CommitOutcome(ctx(t), 1); err != nil {
		t.Fatalf("commit again: %v", err)
	}
	if n := e.Count("rounds", "committed_at IS NOT NULL"); n != 1 {
		t.Fatalf("%d committed rounds, want 1", n)
	}
	if err := c.CommitOutcome(ctx(t), 99); link.Refusal(err) != refusal.RoundNotFound {
		t.Fatalf("commit of a round never drawn: %v", err)
	}
}

func TestRoundConflictRefusedAndNothingChanged(t *testing.T) {
	e := testenv.Start(t, nil)
	c := e.Client("cab-1", nil)
	a, err := c.RequestOutcome(ctx(t), 7, testenv.GameID, testenv.TheGame.ModelID(), 10)
	if err != nil {
		t.Fatal(err)
	}
	_, err = c.RequestOutcome(ctx(t), 7, testenv.GameID, testenv.TheGame.ModelID(), 50)
	if link.Refusal(err) != refusal.RoundConflict {
		t.Fatalf("other stake for an existing round: %v", err)
	}
	if !bytes.Equal(storedBody(t, e, "cab-1", 7), a.Body) || e.Count("rounds", "") != 1 {
		t.Fatal("the store changed")
	}
	// Bad requests change nothing either.
	if err := c.CommitOutcome(ctx(t), 7); err != nil {
		t.Fatal(err)
	}
	for _, tc := range []struct {
		n      uint64
		game   engine.GameID
		stake  engine.Money
		reason refusal.Reason
	}{
		{8, testenv.GameID, 7, refusal.BadStake},
		{8, "nosuchgame", 10, refusal.UnknownGame},
		{0, testenv.GameID, 10, refusal.BadRequest},
	} {
		_, err := c.RequestOutcome(ctx(t), tc.n, tc.game, testenv.TheGame.ModelID(), tc.stake)
		if link.Refusal(err) != tc.reason {
			t.Errorf("%+v: %v", tc, err)
		}
	}
	if e.Count("rounds", "") != 1 {
		t.Fatal("a refused request stored a round")
	}
}

func TestConnectionCutBeforeReply(t *testing.T) {
	e := testenv.Start(t, nil)
	p := testenv.NewProxy(t, e.Addr)
	c := e.Client("cab-1", func(cfg *link.Config) { cfg.Dialer = p.Dialer })
	if _, err := c.Hello(ctx(t)); err != nil {
		t.Fatal(err)
	}
	p.Hold()
	type res struct {
		o   *link.Outcome
		err error
	}
	done := make(chan res, 1)
	go func() {
		o, err := c.RequestOutcome(ctx(t), 42, testenv.GameID, testenv.TheGame.ModelID(), 5)
		done <- res{o, err}
	}()
	// Wait until the server has drawn and stored the round; its reply is
	// held back by the proxy. Then cut the connection under it.
	poll.Until(t, 10*time.Second, "the request at the server (round 42 stored)", func() bool {
		return e.Count("rounds", "cabinet='cab-1' AND round=42") != 0
	})
	select {
	case r := <-done:
		t.Fatalf("the reply got through the proxy: %v", r.err)
	case <-time.After(50 * time.Millisecond):
	}
	p.Cut()
	r := <-done
	if r.err != nil {
		t.Fatalf("retry after the cut: %v", r.err)
	}
	if !bytes.Equal(r.o.Body, storedBody(t, e, "cab-1", 42)) {
		t.Fatal("the retried request got another round")
	}
	if e.Count("rounds", "") != 1 {
		t.Fatal("the retry drew a second round")
	}
}

func TestServerRestartBetweenRequestAndCommit(t *testing.T) {
	e := testenv.Start(t, nil)
	c := e.Client("cab-1", nil)
	a, err := c.RequestOutcome(ctx(t), 3, testenv.GameID, testenv.TheGame.ModelID(), 10)
	if err != nil {
		t.Fatal(err)
	}
	e.Restart()
	b, err := c.RequestOutcome(ctx(t), 3, testenv.GameID, testenv.TheGame.ModelID(), 10)
	if err != nil {
		t.Fatal(err)
	}
	if !bytes.Equal(a.Body, b.Body) || !bytes.Equal(a.Signature, b.Signature) {
		t.Fatal("after a restart the round came back different")
	}
	if err := c.CommitOutcome(ctx(t), 3); err != nil {
		t.Fatal(err)
	}
	if e.Count("rounds", "committed_at IS NOT NULL") != 1 {
		t.Fatal("commit not stored")
	}
}

func TestForgedOrForeignBodiesRefused(t *testing.T) {
	e := testenv.Start(t, nil)
	c1, c2 := e.Client("cab-1", nil), e.Client("cab-2", nil)
	pub := e.Key.Public().(ed25519.PublicKey)
	req := link.OutcomeRequest{Round: 1, Game: testenv.GameID, ModelID: testenv.TheGame.ModelID(), Stake: 10}
	o1, err := c1.RequestOutcome(ctx(t), 1, req.Game, req.ModelID, req.Stake)
	if err != nil {
		t.Fatal(err)
	}
	o2, err := c2.RequestOutcome(ctx(t), 1, req.Game, req.ModelID, req.Stake)
	if err != nil {
		t.Fatal(err)
	}
	before := e.Count("rounds", "")

	// One flipped byte: the signature no longer verifies.
	forged := bytes.Clone(o1.Body)
	forged[len(forged)-1] ^= 1
	var se *link.SignatureError
	if _, err := link.VerifyOutcome(pub, "cab-1", req, forged, o1.Signature); !errors.As(err, &se) {
		t.Fatalf("forged body: %v", err)
	}
	// Signed by another key.
	_, other, _ := ed25519.GenerateKey(rand.Reader)
	if _, err := link.VerifyOutcome(pub, "cab-1", req, o1.Body, ed25519.Sign(other, o1.Body)); !errors.As(err, &se) {
		t.Fatalf("body signed by another key: %v", err)
	}
	// A genuine body, but cab-2's: refused by cab-1.
	var be *link.BodyError
	if _, err := link.VerifyOutcome(pub, "cab-1", req, o2.Body, o2.Signature); !errors.As(err, &be) || be.Field != "cabinet" {
		t.Fatalf("cab-2's body at cab-1: %v", err)
	}
	// A genuine body of another round.
	req9 := req
	req9.Round = 9
	if _, err := link.VerifyOutcome(pub, "cab-1", req9, o1.Body, o1.Signature); !errors.As(err, &be) || be.Field != "round" {
		t.Fatalf("round 1's body for round 9: %v", err)
	}
	// A client pinned to another key refuses what the real server sends.
	c3 := e.Client("cab-1", func(cfg *link.Config) { cfg.SigningKey = other.Public().(ed25519.PublicKey) })
	if _, err := c3.RequestOutcome(ctx(t), 1, req.Game, req.ModelID, req.Stake); !errors.As(err, &se) {
		t.Fatalf("client pinned to another key: %v", err)
	}
	if _, err := c3.Hello(ctx(t)); !errors.As(err, &se) {
		t.Fatalf("hello with another pinned key: %v", err)
	}
	if e.Count("rounds", "") != before || !bytes.Equal(storedBody(t, e, "cab-1", 1), o1.Body) {
		t.Fatal("the store changed")
	}
	// A tampered tape that still carries a valid signature cannot exist;
	// a tampered result is caught by the mirror.
	o1.Result.Total += 5
	if err := o1.Mirror(); err == nil {
		t.Fatal("mirror accepted a changed result")
	}
}

func TestWrongModelRefused(t *testing.T) {
	e := testenv.Start(t, nil)
	c := e.Client("cab-1", func(cfg *link.Config) { cfg.Games = []engine.Game{testenv.WrongModel} })
	if _, err := c.Hello(ctx(t)); link.Refusal(err) != refusal.ModelMismatch {
		t.Fatalf("hello with another model: %v", err)
	}
	if _, err := c.RequestOutcome(ctx(t), 1, testenv.GameID, testenv.WrongModel.ModelID(), 10); link.Refusal(err) != refusal.ModelMismatch {
		t.Fatalf("outcome for another model: %v", err)
	}
	if e.Count("rounds", "") != 0 || e.Count("cabinets", "models != ''") != 0 {
		t.Fatal("the store changed")
	}
}

func TestUnknownCabinetCertificateRefused(t *testing.T) {
	e := testenv.Start(t, nil)
	// A cabinet certificate from a CA of its own, presented to the real
	// server (whose certificate the client does trust): the server's TLS
	// refuses the handshake.
	rogue := testenv.Start(t, nil)
	rogue.Client("cab-9", nil) // issues cab-9's certificate under the rogue CA
	certPath, keyPath := pki.CabinetPaths(rogue.PKI, "cab-9")
	tlsCfg, err := pki.ClientTLS(certPath, keyPath, filepath.Join(e.PKI, pki.CACert), "localhost")
	if err != nil {
		t.Fatal(err)
	}
	c := e.Client("cab-1", func(cfg *link.Config) {
		cfg.TLS = tlsCfg
		cfg.Cabinet = "cab-9"
		cfg.Retries = 1
	})
	_, err = c.RequestOutcome(ctx(t), 1, testenv.GameID, testenv.TheGame.ModelID(), 10)
	var ue *link.UnavailableError
	if !errors.As(err, &ue) {
		t.Fatalf("a certificate of another CA: %v", err)
	}
	// With TLS 1.3 the cabinet may see just a closed connection; the
	// server has the reason.
	n, why := e.Server.Links().HandshakeRefusals()
	if n == 0 || why == nil || !strings.Contains(why.Error(), "unknown authority") {
		t.Fatalf("server refusals %d, last %v", n, why)
	}
	if e.Count("cabinets", "") != 0 || e.Count("rounds", "") != 0 {
		t.Fatal("the store changed")
	}
	// Signed by the right CA but not configured, with unknown cabinets not admitted.
	strict := testenv.Start(t, func(cfg *server.Config) {
		cfg.AllowUnknownCabinets = false
		cfg.Halls = map[string]string{"cab-1": "hall-a"}
	})
	if _, err := strict.Client("cab-7", nil).Hello(ctx(t)); link.Refusal(err) != refusal.UnknownCabinet {
		t.Fatalf("unconfigured cabinet: %v", err)
	}
	info, err := strict.Client("cab-1", nil).Hello(ctx(t))
	if err != nil || info.Hall != "hall-a" {
		t.Fatalf("configured cabinet: %+v %v", info, err)
	}
	if strict.Count("cabinets", "") != 1 {
		t.Fatal("the refused cabinet was stored")
	}
}

func TestRiskSteps(t *testing.T) {
	e := testenv.Start(t, nil)
	c := e.Client("cab-1", nil)
	// Risk is only for the open round: each round is tried while it is
	// the cabinet's latest.
	var win *link.Outcome
	lost := false
	for n := uint64(1); n < 200 && win == nil; n++ {
		o, err := c.RequestOutcome(ctx(t), n, testenv.GameID, testenv.TheGame.ModelID(), 10)
		if err != nil {
			t.Fatal(err)
		}
		if o.Result.Total > 0 && lost {
			win = o
			break
		}
		if o.Result.Total == 0 && !lost {
			lost = true
			if _, err := c.RequestRiskStep(ctx(t), n, 1, engine.Red); link.Refusal(err) != refusal.RiskNotAllowed {
				t.Fatalf("risk on a lost round: %v", err)
			}
		}
		if err := c.CommitOutcome(ctx(t), n); err != nil {
			t.Fatal(err)
		}
	}
	if win == nil || !lost {
		t.Fatal("no win or no loss in 200 rounds")
	}
	if _, err := c.RequestRiskStep(ctx(t), win.Round, 2, engine.Red); link.Refusal(err) != refusal.RiskNotAllowed {
		t.Fatalf("risk step 2 before step 1: %v", err)
	}
	card, err := c.RequestRiskStep(ctx(t), win.Round, 1, engine.Red)
	if err != nil {
		t.Fatal(err)
	}
	if err := card.Mirror(); err != nil {
		t.Fatal(err)
	}
	if card.Step.Before != win.Result.Total {
		t.Fatalf("risk on %d, the round won %d", card.Step.Before, win.Result.Total)
	}
	again, err := c.RequestRiskStep(ctx(t), win.Round, 1, engine.Red)
	if err != nil || !bytes.Equal(again.Body, card.Body) {
		t.Fatalf("risk step asked again: %v", err)
	}
	if _, err := c.RequestRiskStep(ctx(t), win.Round, 1, engine.Black); link.Refusal(err) != refusal.RiskConflict {
		t.Fatalf("other choice for a drawn step: %v", err)
	}
	if e.Count("risk_steps", "") != 1 {
		t.Fatal("refused risk requests stored steps")
	}
}

// Signed garbage (the right key over bytes that are no outcome of this
// request) is a clear *BodyError, never a panic or a half-decoded round.
func TestSignedGarbageRefused(t *testing.T) {
	e := testenv.Start(t, nil)
	pub := e.Key.Public().(ed25519.PublicKey)
	req := link.OutcomeRequest{Round: 1, Game: testenv.GameID, ModelID: testenv.TheGame.ModelID(), Stake: 10}
	for i, body := range [][]byte{nil, {0xff}, []byte("not a protobuf at all"), bytes.Repeat([]byte{0x0a, 0x02, 'h', 'i'}, 10)} {
		_, err := link.VerifyOutcome(pub, "cab-1", req, body, ed25519.Sign(e.Key, body))
		var be *link.BodyError
		if !errors.As(err, &be) {
			t.Errorf("garbage %d: %v", i, err)
		}
	}
	// A risk body signed by the central key is not an outcome body.
	c := e.Client("cab-1", nil)
	for n := uint64(1); n < 100; n++ {
		o, err := c.RequestOutcome(ctx(t), n, req.Game, req.ModelID, 10)
		if err != nil {
			t.Fatal(err)
		}
		if o.Result.Total == 0 {
			if err := c.CommitOutcome(ctx(t), n); err != nil {
				t.Fatal(err)
			}
			continue
		}
		card, err := c.RequestRiskStep(ctx(t), n, 1, engine.Red)
		if err != nil {
			t.Fatal(err)
		}
		r := req
		r.Round = n
		var be *link.BodyError
		if _, err := link.VerifyOutcome(pub, "cab-1", r, card.Body, card.Sig); !errors.As(err, &be) {
			t.Fatalf("a risk body passed as an outcome: %v", err)
		}
		return
	}
	t.Fatal("no win in 99 rounds")
}
