package link

import (
	"bytes"
	"crypto/ed25519"
	"encoding/json"
	"fmt"

	"google.golang.org/protobuf/proto"

	pb "github.com/polaris-vlt/polaris/central/proto"
	"github.com/polaris-vlt/polaris/engine"
)

// SignatureError refuses bytes the central system's key did not sign.
type SignatureError struct{ What string }

func (e *SignatureError) Error() string {
	return "link: " + e.What + ": signature does not verify; body refused"
}

// BodyError refuses a signed body that is not the one asked for: another
// cabinet's, another round's, or one that does not decode.
type BodyError struct {
	Field     string
	Want, Got string
}

func (e *BodyError) Error() string {
	return fmt.Sprintf("link: body refused: %s is %q, want %q", e.Field, e.Got, e.Want)
}

// Outcome is a verified, decoded round from the central system.
type Outcome struct {
	Cabinet string
	Round   uint64
	Game    engine.GameID
	ModelID string
	Stake   engine.Money
	Tape    engine.Tape
	Result  *engine.Round
	Jackpot *JackpotHit // the mystery jackpot, if this round won it
	DrawnAt int64       // unix nanoseconds, central clock
	// Body and Signature are the exact bytes received (for the ledger).
	Body, Signature []byte
}

// JackpotHit is a progressive jackpot won by a round (paid by handpay, MS-18).
type JackpotHit struct {
	Pool, Name string
	Amount     engine.Money
}

// OutcomeRequest is what a round was asked for; the body must match it.
type OutcomeRequest struct {
	Round   uint64
	Game    engine.GameID
	ModelID string
	Stake   engine.Money
}

// Verify checks the signature over body before decoding anything from it.
func verify(pub ed25519.PublicKey, what string, body, sig []byte) error {
	if len(sig) != ed25519.SignatureSize || !ed25519.Verify(pub, body, sig) {
		return &SignatureError{What: what}
	}
	return nil
}

func tapeFromPB(ds []*pb.Draw) engine.Tape {
	t := make(engine.Tape, len(ds))
	for i, d := range ds {
		t[i] = engine.Draw{Value: d.GetValue(), Range: d.GetRange()}
	}
	return t
}

func strictJSON(b []byte, v any) error {
	dec := json.NewDecoder(bytes.NewReader(b))
	dec.DisallowUnknownFields()
	return dec.Decode(v)
}

// VerifyOutcome checks a signed outcome body against the key and the
// request, then decodes it. Errors: *SignatureError, *BodyError.
func VerifyOutcome(pub ed25519.PublicKey, cabinet string, req OutcomeRequest, body, sig []byte) (*Outcome, error) {
	if err := verify(pub, "outcome", body, sig); err != nil {
		return nil, err
	}
	var b pb.OutcomeBody
	if err := proto.Unmarshal(body, &b); err != nil {
		return nil, &BodyError{Field: "body", Want: "an OutcomeBody", Got: err.Error()}
	}
	checks := []struct{ field, want, got string }{
		{"purpose", pb.PurposeOutcome, b.GetPurpose()},
		{"cabinet", cabinet, b.GetCabinet()},
		{"round", fmt.Sprint(req.Round), fmt.Sprint(b.GetRound())},
		{"game", string(req.Game), b.GetGame()},
		{"model id", req.ModelID, b.GetModelId()},
		{"stake", fmt.Sprint(req.Stake), fmt.Sprint(b.GetStake())},
	}
	for _, c := range checks {
		if c.want != c.got {
			return nil, &BodyError{Field: c.field, Want: c.want, Got: c.got}
		}
	}
	var r engine.Round
	if err := strictJSON(b.GetRoundJson(), &r); err != nil {
		return nil, &BodyError{Field: "round json", Want: "an engine round", Got: err.Error()}
	}
	o := &Outcome{
		Cabinet: b.GetCabinet(), Round: b.GetRound(), Game: engine.GameID(b.GetGame()), ModelID: b.GetModelId(),
		Stake: engine.Money(b.GetStake()), Tape: tapeFromPB(b.GetTape()), Result: &r, DrawnAt: b.GetDrawnAtUnixNano(),
		Body: body, Signature: sig,
	}
	if j := b.GetJackpot(); j != nil {
		o.Jackpot = &JackpotHit{Pool: j.GetPool(), Name: j.GetName(), Amount: engine.Money(j.GetAmount())}
	}
	return o, nil
}

// Mirror replays the tape through the registered game and refuses the
// outcome unless it reproduces the result exactly (engine.Mirror).
func (o *Outcome) Mirror() error {
	g, err := engine.Lookup(o.Game)
	if err != nil {
		return err
	}
	if g.ModelID() != o.ModelID {
		return &BodyError{Field: "model id", Want: g.ModelID(), Got: o.ModelID}
	}
	_, err = engine.Mirror(g, o.Stake, o.Tape, o.Result)
	return err
}

// RiskCard is a verified Risk step.
type RiskCard struct {
	Cabinet  string
	Round    uint64
	Step     engine.RiskStep
	Tape     engine.Tape
	RoundCap engine.Money
	DrawnAt  int64
	Body     []byte
	Sig      []byte
}

// VerifyRisk checks a signed Risk body against the key and the request.
func VerifyRisk(pub ed25519.PublicKey, cabinet string, round uint64, step int, choice engine.Colour, body, sig []byte) (*RiskCard, error) {
	if err := verify(pub, "risk card", body, sig); err != nil {
		return nil, err
	}
	var b pb.RiskBody
	if err := proto.Unmarshal(body, &b); err != nil {
		return nil, &BodyError{Field: "body", Want: "a RiskBody", Got: err.Error()}
	}
	var rs engine.RiskStep
	if err := strictJSON(b.GetStepJson(), &rs); err != nil {
		return nil, &BodyError{Field: "step json", Want: "an engine risk step", Got: err.Error()}
	}
	checks := []struct{ field, want, got string }{
		{"purpose", pb.PurposeRisk, b.GetPurpose()},
		{"cabinet", cabinet, b.GetCabinet()},
		{"round", fmt.Sprint(round), fmt.Sprint(b.GetRound())},
		{"step", fmt.Sprint(step), fmt.Sprint(b.GetStep())},
		{"step json step", fmt.Sprint(step), fmt.Sprint(rs.Step)},
		{"choice", choice.String(), rs.Choice.String()},
	}
	for _, c := range checks {
		if c.want != c.got {
			return nil, &BodyError{Field: c.field, Want: c.want, Got: c.got}
		}
	}
	return &RiskCard{
		Cabinet: b.GetCabinet(), Round: b.GetRound(), Step: rs, Tape: tapeFromPB(b.GetTape()),
		RoundCap: engine.Money(b.GetRoundCap()), DrawnAt: b.GetDrawnAtUnixNano(), Body: body, Sig: sig,
	}, nil
}

// Mirror replays the card's one-draw tape (engine.MirrorRisk).
func (r *RiskCard) Mirror() error { return engine.MirrorRisk(r.Tape, r.Step, r.RoundCap) }
