package cabinet

import (
	"context"
	"crypto/ed25519"
	"encoding/json"
	"fmt"
	"sync"

	"google.golang.org/protobuf/proto"

	"github.com/polaris-vlt/polaris/central/link"
	pb "github.com/polaris-vlt/polaris/central/proto"
	"github.com/polaris-vlt/polaris/central/server"
	"github.com/polaris-vlt/polaris/engine"
	"github.com/polaris-vlt/polaris/engine/draw"
	"github.com/polaris-vlt/polaris/engine/magicstars"
)

// scriptedCentral is a central system whose draws the test chooses: each
// round is engine.Play on a seeded source (the seed queued for its game),
// signed with the test's key exactly as the reference server signs, so
// the cabinet verifies and mirrors it as any outcome. Money calls go to
// the embedded central system underneath.
type scriptedCentral struct {
	Central
	key ed25519.PrivateKey
	pub ed25519.PublicKey

	mu      sync.Mutex
	seeds   map[engine.GameID][]uint64
	jackpot map[engine.GameID][]engine.Money // a progressive hit with the next round, 0 none
	rounds  map[uint64]*link.Outcome
	risk    map[[2]uint64]*link.RiskCard
	riskSrc *draw.Seeded
	// asked, when set, sees every outcome request before it is drawn.
	asked func(n uint64)
	// srv is the embedded central system under it: the scripted rounds'
	// net result is booked into its credit mirror before a voucher.
	srv    *server.Server
	booked map[uint64]bool
}

// IssueVoucher books the scripted rounds the real central system never
// drew into its credit mirror, then asks it for the voucher.
func (s *scriptedCentral) IssueVoucher(ctx context.Context, amount engine.Money, seq uint64) (*link.Voucher, error) {
	s.mu.Lock()
	var delta engine.Money
	if s.booked == nil {
		s.booked = map[uint64]bool{}
	}
	for n, o := range s.rounds {
		if s.booked[n] {
			continue
		}
		s.booked[n] = true
		won := o.Result.Total
		for step := uint64(1); ; step++ {
			c, ok := s.risk[[2]uint64{n, step}]
			if !ok {
				break
			}
			won = c.Step.After
		}
		delta += won - o.Stake
	}
	s.mu.Unlock()
	if s.srv != nil {
		if err := s.srv.Mirror().Adjust(ctx, "cab-1", int64(delta), "scripted rounds"); err != nil {
			return nil, err
		}
	}
	return s.Central.IssueVoucher(ctx, amount, seq)
}

func newScriptedCentral() *scriptedCentral {
	pub, key, _ := ed25519.GenerateKey(nil)
	return &scriptedCentral{key: key, pub: pub, seeds: map[engine.GameID][]uint64{}, jackpot: map[engine.GameID][]engine.Money{},
		rounds: map[uint64]*link.Outcome{}, risk: map[[2]uint64]*link.RiskCard{}, riskSrc: draw.NewSeeded(7, 7)}
}

// option installs the scripted central in a rig's cabinet (at every start).
func (s *scriptedCentral) option() rigOption {
	return func(c *Config) {
		if _, ok := c.Central.(*scriptedCentral); !ok {
			s.Central = c.Central
		}
		c.Central, c.SigningKey = s, s.pub
	}
}

// queue makes the next round of g play seed, with a progressive hit of
// jackpot (0: none).
func (s *scriptedCentral) queue(g engine.GameID, seed uint64, jackpot engine.Money) {
	s.mu.Lock()
	s.seeds[g] = append(s.seeds[g], seed)
	s.jackpot[g] = append(s.jackpot[g], jackpot)
	s.mu.Unlock()
}

// findSeed is the first seed whose round of g at stake satisfies ok.
func findSeed(g engine.GameID, stake engine.Money, ok func(*engine.Round) bool) uint64 {
	eg, _ := engine.Lookup(g)
	for seed := uint64(0); ; seed++ {
		r, _, err := engine.Play(eg, draw.NewSeeded(seed, 0), stake)
		if err == nil && ok(r) {
			return seed
		}
	}
}

func (s *scriptedCentral) RequestOutcome(ctx context.Context, n uint64, game engine.GameID, modelID string, stake engine.Money) (*link.Outcome, error) {
	s.mu.Lock()
	defer s.mu.Unlock()
	if s.asked != nil {
		s.asked(n)
	}
	if o, ok := s.rounds[n]; ok {
		return o, nil // idempotent on the round number
	}
	g, err := engine.Lookup(game)
	if err != nil {
		return nil, err
	}
	var seed uint64 = 1000 + n
	var jackpot engine.Money
	if q := s.seeds[game]; len(q) > 0 {
		seed, s.seeds[game] = q[0], q[1:]
		jackpot, s.jackpot[game] = s.jackpot[game][0], s.jackpot[game][1:]
	}
	round, tape, err := engine.Play(g, draw.NewSeeded(seed, 0), stake)
	if err != nil {
		return nil, err
	}
	rj, _ := json.Marshal(round)
	body := &pb.OutcomeBody{Purpose: pb.PurposeOutcome, Cabinet: "cab-1", Round: n, Game: string(game), ModelId: g.ModelID(),
		Stake: int64(stake), RoundJson: rj, DrawnAtUnixNano: 1}
	for _, d := range tape {
		body.Tape = append(body.Tape, &pb.Draw{Value: d.Value, Range: d.Range})
	}
	if jackpot > 0 {
		body.Jackpot = &pb.JackpotHit{Pool: "test", Name: "magicstars", Amount: int64(jackpot)}
	}
	b, err := proto.MarshalOptions{Deterministic: true}.Marshal(body)
	if err != nil {
		return nil, err
	}
	o, err := link.VerifyOutcome(s.pub, "cab-1", link.OutcomeRequest{Round: n, Game: game, ModelID: modelID, Stake: stake}, b, ed25519.Sign(s.key, b))
	if err != nil {
		return nil, err
	}
	s.rounds[n] = o
	return o, nil
}

func (s *scriptedCentral) RequestRiskStep(ctx context.Context, n uint64, step int, choice engine.Colour) (*link.RiskCard, error) {
	s.mu.Lock()
	defer s.mu.Unlock()
	if c, ok := s.risk[[2]uint64{n, uint64(step)}]; ok {
		return c, nil
	}
	o, ok := s.rounds[n]
	if !ok {
		return nil, fmt.Errorf("scripted central: no round %d", n)
	}
	before := o.Result.Total
	if prev, ok := s.risk[[2]uint64{n, uint64(step - 1)}]; ok {
		before = prev.Step.After
	}
	rec := &engine.Recorder{Src: s.riskSrc}
	rs, err := engine.PlayRisk(rec, step, before, choice, magicstars.RoundCap)
	if err != nil {
		return nil, err
	}
	sj, _ := json.Marshal(rs)
	body := &pb.RiskBody{Purpose: pb.PurposeRisk, Cabinet: "cab-1", Round: n, Step: uint32(step), StepJson: sj,
		RoundCap: int64(magicstars.RoundCap), DrawnAtUnixNano: 1}
	for _, d := range rec.Tape {
		body.Tape = append(body.Tape, &pb.Draw{Value: d.Value, Range: d.Range})
	}
	b, err := proto.MarshalOptions{Deterministic: true}.Marshal(body)
	if err != nil {
		return nil, err
	}
	c, err := link.VerifyRisk(s.pub, "cab-1", n, step, choice, b, ed25519.Sign(s.key, b))
	if err != nil {
		return nil, err
	}
	s.risk[[2]uint64{n, uint64(step)}] = c
	return c, nil
}

// outcome is the round the central system drew for n.
func (s *scriptedCentral) outcome(n uint64) *link.Outcome {
	s.mu.Lock()
	defer s.mu.Unlock()
	return s.rounds[n]
}

func (s *scriptedCentral) card(n uint64, step int) *link.RiskCard {
	s.mu.Lock()
	defer s.mu.Unlock()
	return s.risk[[2]uint64{n, uint64(step)}]
}
