package crashtest

import (
	"encoding/json"
	"fmt"
	"io"
	"math/rand"
	"strconv"

	"github.com/polaris-vlt/polaris/firmware/ledger"
)

// ChildConfig tells a child where the ledger is and how to play.
type ChildConfig struct {
	DirA, DirB string
	Seed       int64
	FirstN     int64 // number of the first new op
	Replay     *Op   // op to repeat first (in flight at the last kill)
	Parallel   bool
}

// RunChild opens the ledger and performs transactions until killed,
// announcing each on out. It returns only on an error.
func RunChild(cfg ChildConfig, out io.Writer) error {
	say := func(format string, a ...any) {
		// one write per line: what reached the pipe survives the kill
		out.Write([]byte(fmt.Sprintf(format, a...) + "\n"))
	}
	l, err := ledger.Open(ledger.Options{DirA: cfg.DirA, DirB: cfg.DirB, Parallel: cfg.Parallel})
	if err != nil {
		say("X open: %v", err)
		return err
	}
	if e := l.RAMError(); e != nil {
		say("X %v", e)
		return e
	}
	say("R")
	rng := rand.New(rand.NewSource(cfg.Seed))
	n := cfg.FirstN
	run := func(o Op) error {
		b, _ := json.Marshal(o)
		say("B %s", b)
		if err := perform(l, o); err != nil {
			say("E %d %v", o.N, err)
			return err
		}
		say("A %d", o.N)
		switch o.Kind {
		case "settle", "stacked", "voucher_printed", "handpay_paid", "door_close", "config":
			// the cabinet checks its memory after money moved and doors closed
			rep, err := l.Verify(o.Kind)
			if err != nil {
				say("X verify: %v", err)
				return err
			}
			if len(rep.Rebuilt) > 0 { // nothing but a kill happened: no copy may go bad
				say("X verify rebuilt a copy: %v", rep.Rebuilt)
				return fmt.Errorf("verify rebuilt %v", rep.Rebuilt)
			}
		}
		return nil
	}
	if cfg.Replay != nil {
		o := *cfg.Replay
		o.Replay = true
		if err := run(o); err != nil {
			return err
		}
	}
	if err := run(Op{N: n, Kind: "powerup"}); err != nil {
		return err
	}
	for {
		n++
		if err := run(next(l, rng, n)); err != nil {
			return err
		}
	}
}

var (
	games     = []string{"wish", "stars"}
	denoms    = []int64{1, 2, 5, 10}
	billVals  = []int64{500, 1000, 2000, 5000, 10000}
	doors     = []string{"main", "logic", "cashbox"}
	tilts     = []string{"acceptor", "printer", "ledger"}
	handpayAt = int64(20000)
)

// next picks a transaction that makes sense in the ledger's current state,
// the way a cabinet would: finish what is open, else something new.
func next(l *ledger.Ledger, rng *rand.Rand, n int64) Op {
	credit, _ := l.Credit()
	if r, ok := l.OpenRound(); ok {
		switch r.Status {
		case ledger.RoundWagered:
			if rng.Intn(10) == 0 {
				return Op{N: n, Kind: "refund", Round: r.Number, Text: "central refused"}
			}
			win := int64(0)
			if rng.Intn(5) < 2 {
				win = r.Stake * int64(1+rng.Intn(20))
				if rng.Intn(50) == 0 {
					win = r.Stake * 500
				}
			}
			return Op{N: n, Kind: "outcome", Round: r.Number, Win: win}
		default:
			if r.PendingWin > 0 && len(r.Risk) < 4 && rng.Intn(3) == 0 {
				won := int64(0)
				if rng.Intn(2) == 0 {
					won = 2 * r.PendingWin
				}
				return Op{N: n, Kind: "risk", Round: r.Number, Step: len(r.Risk) + 1, Stake: r.PendingWin, Won: won}
			}
			o := Op{N: n, Kind: "settle", Round: r.Number, Credit: r.PendingWin, Commit: rng.Intn(2) == 0}
			if r.PendingWin >= handpayAt {
				o.Credit, o.Handpay = 0, r.PendingWin
			}
			if rng.Intn(40) == 0 {
				o.Jackpot = 50000
			}
			return o
		}
	}
	if docs := l.PendingDocs(); len(docs) > 0 {
		d := docs[0]
		switch d.Kind {
		case ledger.DocBill:
			if rng.Intn(8) == 0 {
				return Op{N: n, Kind: "returned", ID: d.ID}
			}
			return Op{N: n, Kind: "stacked", ID: d.ID, Amount: d.Amount}
		case ledger.DocTicketIn:
			// as the cabinet does: the central system's hold journaled with
			// the escrow, then stacked for its amount (or given back)
			h, held := l.Resume().Holds[d.ID]
			switch {
			case rng.Intn(8) == 0:
				return Op{N: n, Kind: "returned", ID: d.ID}
			case !held:
				return Op{N: n, Kind: "ticket_hold", ID: d.ID, Text: "hold-" + strconv.FormatUint(d.ID, 10), Amount: int64(100 * (1 + rng.Intn(100)))}
			}
			return Op{N: n, Kind: "stacked", ID: d.ID, Amount: h.Amount}
		case ledger.DocVoucher:
			if rng.Intn(10) == 0 {
				return Op{N: n, Kind: "voucher_failed", ID: d.ID, Text: "paper jam"}
			}
			if d.Number == "" && rng.Intn(10) == 0 {
				// never answered: the attendant pays it by hand
				return Op{N: n, Kind: "voucher_to_handpay", ID: d.ID, To: l.NextDocID(), Text: "key"}
			}
			if d.Number == "" {
				// requested: the central system's number, then the print
				return Op{N: n, Kind: "voucher_printing", ID: d.ID, DocKind: string(ledger.DocVoucher), Amount: d.Amount,
					Number: fmt.Sprintf("%018d", rng.Int63n(1e18))}
			}
			return Op{N: n, Kind: "voucher_printed", ID: d.ID}
		default:
			return Op{N: n, Kind: "handpay_paid", ID: d.ID, Text: "attendant-" + strconv.Itoa(rng.Intn(9))}
		}
	}
	id := l.NextDocID()
	switch p := rng.Intn(100); {
	case p < 14:
		return Op{N: n, Kind: "escrow", ID: id, DocKind: string(ledger.DocBill), Amount: billVals[rng.Intn(len(billVals))]}
	case p < 18:
		return Op{N: n, Kind: "escrow", ID: id, DocKind: string(ledger.DocTicketIn), Number: fmt.Sprintf("%018d", rng.Int63n(1e18))}
	case p < 60 && credit > 0:
		d := denoms[rng.Intn(len(denoms))]
		stake := d * int64(1+rng.Intn(10))
		if stake > credit {
			stake = credit - credit%d
		}
		if stake <= 0 {
			break
		}
		return Op{N: n, Kind: "wager", Round: l.NextRound(), Game: games[rng.Intn(2)], Denom: d, Stake: stake}
	case p < 62 && credit > 0:
		// as the cabinet does: the request journaled before the central
		// system is asked for its number
		return Op{N: n, Kind: "voucher_requested", ID: id, DocKind: string(ledger.DocVoucher), Amount: credit}
	case p < 64 && credit > 0:
		return Op{N: n, Kind: "voucher_printing", ID: id, DocKind: string(ledger.DocVoucher), Amount: credit,
			Number: fmt.Sprintf("%018d", rng.Int63n(1e18))}
	case p < 66 && credit > 0:
		return Op{N: n, Kind: "cc_handpay", ID: id, DocKind: string(ledger.DocHandpayCancel), Amount: credit}
	case p < 70:
		return Op{N: n, Kind: "door_open", Text: doors[rng.Intn(len(doors))]}
	case p < 73:
		return Op{N: n, Kind: "door_close", Text: doors[rng.Intn(len(doors))]}
	case p < 76:
		return Op{N: n, Kind: "event", Key: "tilt", Text: "printer paper low"}
	case p < 78:
		return Op{N: n, Kind: "tilt", Key: tilts[rng.Intn(len(tilts))], Text: "reason " + strconv.Itoa(rng.Intn(3)), Manual: rng.Intn(2) == 0}
	case p < 80:
		return Op{N: n, Kind: "tilt_clear", Key: tilts[rng.Intn(len(tilts))]}
	case p < 83:
		return Op{N: n, Kind: "config", Key: "limit/" + strconv.Itoa(rng.Intn(3)), Value: strconv.Itoa(rng.Intn(1000))}
	case p < 91:
		return Op{N: n, Kind: "enqueue", Text: "meters", Value: strconv.FormatInt(n, 10)}
	default:
		for id, h := range l.Resume().Holds {
			if h.Result != "" && rng.Intn(2) == 0 { // the central system answered
				return Op{N: n, Kind: "hold_settled", ID: id}
			}
		}
		if msgs, _ := l.Pending(1); len(msgs) > 0 {
			return Op{N: n, Kind: "ack", OutboxID: msgs[0].ID}
		}
	}
	return Op{N: n, Kind: "event", Key: "idle", Text: "nothing to do"}
}

// perform calls the ledger for one op.
func perform(l *ledger.Ledger, o Op) error {
	switch o.Kind {
	case "powerup":
		return l.PowerUp()
	case "wager":
		return l.Wager(ledger.Wager{Round: o.Round, Game: o.Game, Denom: o.Denom, Stake: o.Stake, Choices: []byte(`{"lines":10}`)})
	case "outcome":
		return l.Outcome(o.Round, o.Win, []byte(fmt.Sprintf(`{"round":%d,"win":%d,"tape":[3,1,4,1,5]}`, o.Round, o.Win)))
	case "risk":
		return l.Risk(o.Round, ledger.RiskStep{Step: o.Step, Stake: o.Stake, Won: o.Won, Payload: []byte("card")})
	case "settle":
		s := ledger.Settlement{Credit: o.Credit, Handpay: o.Handpay, Jackpot: o.Jackpot}
		if o.Commit {
			s.Commit = []byte(fmt.Sprintf("commit %d", o.Round))
		}
		return l.Settle(o.Round, s)
	case "refund":
		return l.Refund(o.Round, o.Text)
	case "escrow":
		return l.Escrow(o.ID, ledger.DocKind(o.DocKind), o.Amount, o.Number)
	case "stacked":
		return l.Stacked(o.ID, o.Amount)
	case "returned":
		return l.Returned(o.ID)
	case "ticket_hold":
		return l.HoldTicket(o.ID, o.Text, o.Amount)
	case "hold_settled":
		return l.HoldSettled(o.ID)
	case "tilt":
		return l.SetTilt(o.Key, o.Text, o.Manual)
	case "tilt_clear":
		return l.ClearTilt(o.Key, "crashtest", "")
	case "voucher_requested":
		return l.VoucherRequested(o.ID, o.Amount)
	case "voucher_printing":
		return l.VoucherPrinting(o.ID, o.Amount, o.Number)
	case "voucher_printed":
		return l.VoucherPrinted(o.ID)
	case "voucher_failed":
		return l.VoucherFailed(o.ID, o.Text)
	case "voucher_to_handpay":
		return l.VoucherToHandpay(o.ID, o.To, o.Text)
	case "cc_handpay":
		return l.CancelCreditHandpay(o.ID, o.Amount)
	case "handpay_paid":
		return l.HandpayPaid(o.ID, o.Text)
	case "door_open":
		return l.DoorOpened(o.Text)
	case "door_close":
		return l.DoorClosed(o.Text)
	case "event":
		return l.LogEvent(o.Key, "crashtest", o.Text, 0, nil)
	case "config":
		return l.SetConfig(o.Key, o.Value, "crashtest")
	case "enqueue":
		_, err := l.Enqueue(o.Text, []byte(o.Value))
		return err
	case "ack":
		return l.Ack(o.OutboxID)
	}
	return fmt.Errorf("unknown op %q", o.Kind)
}
