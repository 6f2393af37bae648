package crashtest

import (
	"fmt"
	"maps"
	"sort"
	"strconv"
	"strings"

	"github.com/polaris-vlt/polaris/firmware/ledger"
)

// Op is one transaction of the child, as announced to the harness.
type Op struct {
	N      int64  `json:"n"`
	Kind   string `json:"kind"`
	Replay bool   `json:"replay,omitempty"`

	Round   uint64 `json:"round,omitempty"`
	Game    string `json:"game,omitempty"`
	Denom   int64  `json:"denom,omitempty"`
	Stake   int64  `json:"stake,omitempty"`
	Win     int64  `json:"win,omitempty"`
	Step    int    `json:"step,omitempty"`
	Won     int64  `json:"won,omitempty"`
	Credit  int64  `json:"credit,omitempty"`
	Handpay int64  `json:"handpay,omitempty"`
	Jackpot int64  `json:"jackpot,omitempty"`
	Commit  bool   `json:"commit,omitempty"`

	ID      uint64 `json:"id,omitempty"`
	To      uint64 `json:"to,omitempty"` // the document an op starts in ID's place (voucher_to_handpay)
	DocKind string `json:"doc_kind,omitempty"`
	Amount  int64  `json:"amount,omitempty"`
	Number  string `json:"number,omitempty"`

	Text     string `json:"text,omitempty"`
	Key      string `json:"key,omitempty"`
	Value    string `json:"value,omitempty"`
	OutboxID int64  `json:"outbox_id,omitempty"`
	Manual   bool   `json:"manual,omitempty"`
}

// replayable ops are keyed, so the cabinet may repeat them after a restart.
func (o Op) replayable() bool {
	switch o.Kind {
	case "powerup", "door_open", "door_close", "event", "enqueue":
		return false
	}
	return true
}

type mdoc struct {
	Kind   string
	Amount int64
	Round  uint64
	Game   string
	Denom  int64
}

// mhold is a ticket's hold: its amount and how its escrow ended ("" still
// in escrow).
type mhold struct {
	Hold   string
	Amount int64
	Result string
}

type mround struct {
	N       uint64
	Game    string
	Denom   int64
	Stake   int64
	Status  string
	Win     int64
	Pending int64
	Steps   int
}

// model is the harness's own bookkeeping of what the acknowledged
// transactions imply.
type model struct {
	Credit    int64
	M         map[string]map[string]int64
	Docs      map[uint64]mdoc
	Round     *mround
	LastRound uint64
	LastDoc   uint64
	Config    map[string]string
	OutboxSeq int64
	Outbox    map[int64]bool
	// the resume state
	Holds map[uint64]mhold
	Tilts map[string]string // key → "reason manual"
	Doors map[string]bool   // open doors
}

func newModel() *model {
	m := &model{M: map[string]map[string]int64{}, Docs: map[uint64]mdoc{}, Config: map[string]string{}, Outbox: map[int64]bool{},
		Holds: map[uint64]mhold{}, Tilts: map[string]string{}, Doors: map[string]bool{}}
	m.add("ram_clears", 1, "cabinet")
	return m
}

func (m *model) clone() *model {
	c := *m
	c.M = map[string]map[string]int64{}
	for s, mm := range m.M {
		c.M[s] = map[string]int64{}
		for k, v := range mm {
			c.M[s][k] = v
		}
	}
	c.Docs = map[uint64]mdoc{}
	for k, v := range m.Docs {
		c.Docs[k] = v
	}
	if m.Round != nil {
		r := *m.Round
		c.Round = &r
	}
	c.Config = map[string]string{}
	for k, v := range m.Config {
		c.Config[k] = v
	}
	c.Outbox = maps.Clone(m.Outbox)
	c.Holds = maps.Clone(m.Holds)
	c.Tilts = maps.Clone(m.Tilts)
	c.Doors = maps.Clone(m.Doors)
	return &c
}

const modulus = 1_000_000_000_000

func (m *model) add(meter string, d int64, scopes ...string) {
	if d == 0 {
		return
	}
	for _, s := range scopes {
		if m.M[s] == nil {
			m.M[s] = map[string]int64{}
		}
		m.M[s][meter] = (m.M[s][meter] + d) % modulus
	}
}

func gameScopes(game string, denom int64) []string {
	return []string{"cabinet", "game/" + game, "denom/" + strconv.FormatInt(denom, 10)}
}

// apply books one transaction the way an accountant would.
func (m *model) apply(o Op) {
	switch o.Kind {
	case "powerup":
		m.add("power_ups", 1, "cabinet")
	case "wager":
		m.Credit -= o.Stake
		m.add("coin_in", o.Stake, gameScopes(o.Game, o.Denom)...)
		m.Round = &mround{N: o.Round, Game: o.Game, Denom: o.Denom, Stake: o.Stake, Status: "wagered"}
		m.LastRound = o.Round
	case "outcome":
		m.Round.Status, m.Round.Win, m.Round.Pending = "outcome", o.Win, o.Win
	case "risk":
		r := m.Round
		r.Pending += o.Won - o.Stake
		r.Steps++
		m.add("risk_wagered", o.Stake, gameScopes(r.Game, r.Denom)...)
		m.add("risk_won", o.Won, gameScopes(r.Game, r.Denom)...)
	case "settle":
		r := m.Round
		sc := gameScopes(r.Game, r.Denom)
		m.Credit += o.Credit
		m.add("coin_out", o.Credit, sc...)
		m.add("games_played", 1, sc...)
		if r.Win > 0 || o.Jackpot > 0 {
			m.add("games_won", 1, sc...)
		}
		if o.Handpay > 0 {
			m.LastDoc++
			m.Docs[m.LastDoc] = mdoc{Kind: "handpay_win", Amount: o.Handpay, Round: r.N, Game: r.Game, Denom: r.Denom}
		}
		if o.Jackpot > 0 {
			m.LastDoc++
			m.Docs[m.LastDoc] = mdoc{Kind: "handpay_jackpot", Amount: o.Jackpot, Round: r.N, Game: r.Game, Denom: r.Denom}
		}
		if o.Commit {
			m.OutboxSeq++
			m.Outbox[m.OutboxSeq] = true
		}
		m.Round = nil
	case "refund":
		r := m.Round
		m.Credit += r.Stake
		m.add("wagers_refunded", r.Stake, gameScopes(r.Game, r.Denom)...)
		m.Round = nil
	case "escrow", "voucher_requested", "voucher_printing", "cc_handpay":
		m.Docs[o.ID] = mdoc{Kind: o.DocKind, Amount: o.Amount}
		m.LastDoc = o.ID
	case "stacked":
		d := m.Docs[o.ID]
		m.Credit += o.Amount
		if d.Kind == "bill" {
			m.add("bills_in_value", o.Amount, "cabinet")
			m.add("bills_in_count", 1, "cabinet", "bill/"+strconv.FormatInt(o.Amount, 10))
		} else {
			m.add("tickets_in_value", o.Amount, "cabinet")
			m.add("tickets_in_count", 1, "cabinet")
		}
		m.add("total_drop", o.Amount, "cabinet")
		delete(m.Docs, o.ID)
		m.endHold(o.ID, "stacked")
	case "returned", "voucher_failed":
		delete(m.Docs, o.ID)
		m.endHold(o.ID, "returned")
	case "voucher_to_handpay":
		d := m.Docs[o.ID]
		delete(m.Docs, o.ID)
		m.Docs[o.To] = mdoc{Kind: "handpay_cancelled_credit", Amount: d.Amount}
		m.LastDoc = o.To
	case "ticket_hold":
		m.Holds[o.ID] = mhold{Hold: o.Text, Amount: o.Amount}
	case "hold_settled":
		delete(m.Holds, o.ID)
	case "tilt":
		m.Tilts[o.Key] = fmt.Sprintf("%s %v", o.Text, o.Manual)
	case "tilt_clear":
		delete(m.Tilts, o.Key)
	case "voucher_printed":
		d := m.Docs[o.ID]
		m.Credit -= d.Amount
		m.add("tickets_out_value", d.Amount, "cabinet")
		m.add("tickets_out_count", 1, "cabinet")
		delete(m.Docs, o.ID)
	case "handpay_paid":
		d := m.Docs[o.ID]
		switch d.Kind {
		case "handpay_win":
			m.add("handpay_win", d.Amount, gameScopes(d.Game, d.Denom)...)
		case "handpay_jackpot":
			m.add("jackpot_attendant", d.Amount, gameScopes(d.Game, d.Denom)...)
		case "handpay_cancelled_credit":
			m.Credit -= d.Amount
			m.add("handpay_cancelled_credit", d.Amount, "cabinet")
		}
		delete(m.Docs, o.ID)
	case "door_open":
		m.add("door_opens", 1, "cabinet", "door/"+o.Text)
		m.Doors[o.Text] = true
	case "config":
		m.Config[o.Key] = o.Value
	case "enqueue":
		m.OutboxSeq++
		m.Outbox[m.OutboxSeq] = true
	case "ack":
		delete(m.Outbox, o.OutboxID)
	case "door_close":
		delete(m.Doors, o.Text)
	case "event":
	default:
		panic("crashtest: unknown op " + o.Kind)
	}
}

func (m *model) endHold(id uint64, res string) {
	if h, ok := m.Holds[id]; ok && h.Result == "" {
		h.Result = res
		m.Holds[id] = h
	}
}

// view renders a model or a ledger into comparable text, one fact a line.
func (m *model) view() string {
	var lines []string
	lines = append(lines, fmt.Sprintf("credit %d", m.Credit))
	for s, mm := range m.M {
		for k, v := range mm {
			if v != 0 {
				lines = append(lines, fmt.Sprintf("meter %s %s %d", s, k, v))
			}
		}
	}
	for id, d := range m.Docs {
		lines = append(lines, fmt.Sprintf("doc %d %s %d", id, d.Kind, d.Amount))
	}
	if r := m.Round; r != nil {
		lines = append(lines, fmt.Sprintf("open round %d %s pending %d steps %d", r.N, r.Status, r.Pending, r.Steps))
	}
	lines = append(lines, fmt.Sprintf("last round %d", m.LastRound), fmt.Sprintf("last doc %d", m.LastDoc))
	for k, v := range m.Config {
		lines = append(lines, fmt.Sprintf("config %s=%s", k, v))
	}
	for id := range m.Outbox {
		lines = append(lines, fmt.Sprintf("outbox %d", id))
	}
	for id, h := range m.Holds {
		lines = append(lines, fmt.Sprintf("hold %d %s %d %q", id, h.Hold, h.Amount, h.Result))
	}
	for k, t := range m.Tilts {
		lines = append(lines, fmt.Sprintf("tilt %s %s", k, t))
	}
	for k := range m.Doors {
		lines = append(lines, "door open "+k)
	}
	sort.Strings(lines)
	return strings.Join(lines, "\n")
}

// ledgerView renders what the ledger holds in the same form.
func ledgerView(l *ledger.Ledger) (string, error) {
	var lines []string
	c, _ := l.Credit()
	lines = append(lines, fmt.Sprintf("credit %d", c))
	all, _ := l.AllMeters()
	for s, mm := range all {
		for k, v := range mm {
			if v != 0 {
				lines = append(lines, fmt.Sprintf("meter %s %s %d", s, k, v))
			}
		}
	}
	for _, d := range l.PendingDocs() {
		lines = append(lines, fmt.Sprintf("doc %d %s %d", d.ID, d.Kind, d.Amount))
	}
	if r, ok := l.OpenRound(); ok {
		lines = append(lines, fmt.Sprintf("open round %d %s pending %d steps %d", r.Number, r.Status, r.PendingWin, len(r.Risk)))
	}
	lines = append(lines, fmt.Sprintf("last round %d", l.NextRound()-1), fmt.Sprintf("last doc %d", l.NextDocID()-1))
	for k, v := range l.ConfigAll() {
		lines = append(lines, fmt.Sprintf("config %s=%s", k, v))
	}
	msgs, err := l.Pending(1 << 30)
	if err != nil {
		return "", err
	}
	for _, m := range msgs {
		lines = append(lines, fmt.Sprintf("outbox %d", m.ID))
	}
	rs := l.Resume()
	for id, h := range rs.Holds {
		lines = append(lines, fmt.Sprintf("hold %d %s %d %q", id, h.Hold, h.Amount, string(h.Result)))
	}
	for k, t := range rs.Tilts {
		lines = append(lines, fmt.Sprintf("tilt %s %s %v", k, t.Reason, t.Manual))
	}
	for k := range rs.Doors {
		lines = append(lines, "door open "+k)
	}
	sort.Strings(lines)
	return strings.Join(lines, "\n"), nil
}
