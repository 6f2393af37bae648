package main

import (
	"bytes"
	"context"
	"crypto/ed25519"
	"crypto/rand"
	"encoding/base64"
	"encoding/json"
	"fmt"
	"io"
	"net"
	"net/http"
	"net/url"
	"os"
	"path/filepath"
	"strings"
	"time"

	"github.com/polaris-vlt/polaris/central/players"
	"github.com/polaris-vlt/polaris/drivers/cardreader/cardemu"
	"github.com/polaris-vlt/polaris/drivers/cardreader/readeremu"
)

// cardPlay is the card mode's hall: a private pcscd with vpcd's virtual
// reader that outlives the cabinet's kills (a card stays in the reader
// through a power cut), the project's card emulator in its slot, and the
// players registered at the central system through its admin API, each
// with a card and the four limits decided.
type cardPlay struct {
	sys    *system
	rig    *readeremu.Rig
	slot   *cardemu.Slot
	master []byte
	cards  []playerCard
	in     int // index in cards of the card in the reader, -1 none
}

type playerCard struct {
	number, account string
	betsDay         int64 // 0: refused
}

// Card numbers: 16 digits (players.validCard).
var cardNumbers = []string{"4000123456789010", "4000123456789028"}

// cardConfig writes the secrets and the nodes' configuration file:
// players in the cz market with a continuous-play rule short enough that
// breaks happen within a run.
func cardConfig(dir string, maxPlay, brk time.Duration) (cfg string, master []byte, regKey ed25519.PrivateKey, err error) {
	master = make([]byte, 32)
	hashKey := make([]byte, 32)
	rand.Read(master)
	rand.Read(hashKey)
	pub, priv, err := ed25519.GenerateKey(rand.Reader)
	if err != nil {
		return "", nil, nil, err
	}
	mp, hp := filepath.Join(dir, "card-master.key"), filepath.Join(dir, "id-hash.key")
	for p, b := range map[string][]byte{mp: master, hp: hashKey} {
		if err := os.WriteFile(p, b, 0o600); err != nil {
			return "", nil, nil, err
		}
	}
	warn := brk
	if warn > maxPlay/2 {
		warn = maxPlay / 2
	}
	cfg = filepath.Join(dir, "central.toml")
	text := fmt.Sprintf(hallConfig+"[players]\nmarket = \"cz\"\nhash_key = %q\ncard_master_key = %q\nregister_key = %q\nmax_play = %q\nbreak = %q\nbreak_warning = %q\n",
		hp, mp, base64.StdEncoding.EncodeToString(pub), maxPlay.String(), brk.String(), warn.String())
	return cfg, master, priv, os.WriteFile(cfg, []byte(text), 0o600)
}

// startCards starts the reader and registers the players at a node: the
// first card with generous limits, the second with a daily bet limit
// chaos play reaches, so that rounds are refused at the limit under kills.
func startCards(dir string, sys *system, master []byte, regKey ed25519.PrivateKey, betsDay int64) (*cardPlay, error) {
	c := &cardPlay{sys: sys, master: master, in: -1}
	log, err := os.Create(filepath.Join(dir, "pcscd.log"))
	if err != nil {
		return nil, err
	}
	rdir := filepath.Join(dir, "pcscd")
	if err := os.MkdirAll(rdir, 0o755); err != nil {
		return nil, err
	}
	if c.rig, err = readeremu.Start(rdir, log); err != nil {
		return nil, err
	}
	c.slot = c.rig.Slot(0)
	adm := adminAPI(sys.admin())
	if _, err := adm.post("import-exclusions", nil, players.SignExclusions(regKey, time.Now().Format("2006-01-02"), nil)); err != nil {
		c.close()
		return nil, err
	}
	for i, number := range cardNumbers {
		reg, _ := json.Marshal(players.Registration{Name: fmt.Sprintf("Hráč %d", i+1), BirthDate: "1980-05-17",
			DocumentNumber: fmt.Sprintf("AB%07d", i+1), IdentityVerified: true, VerifiedBy: "polaris-crash"})
		b, err := adm.post("register", nil, reg)
		if err != nil {
			c.close()
			return nil, err
		}
		var a players.Account
		if err := json.Unmarshal(b, &a); err != nil {
			c.close()
			return nil, fmt.Errorf("register: %w", err)
		}
		if _, err := adm.post("card", url.Values{"account": {a.ID}, "card": {number}}, nil); err != nil {
			c.close()
			return nil, err
		}
		pc := playerCard{number: number, account: a.ID}
		if i == 1 {
			pc.betsDay = betsDay
		}
		for _, k := range players.Kinds {
			amount := "none"
			if k == players.BetsDay && pc.betsDay > 0 {
				amount = fmt.Sprint(pc.betsDay)
			}
			if _, err := adm.post("limits", url.Values{"account": {a.ID}, "kind": {k}, "amount": {amount}}, nil); err != nil {
				c.close()
				return nil, err
			}
		}
		c.cards = append(c.cards, pc)
	}
	return c, nil
}

func (c *cardPlay) sysAdmin() string { return c.sys.admin() }

// insert puts card i into the reader (taking out the one in it: vpcd
// and pcscd see a card out only if it stays out a moment, SwapGap).
func (c *cardPlay) insert(i int) error {
	if c.in >= 0 {
		c.remove()
		time.Sleep(cardemu.SwapGap)
	}
	if err := c.slot.Insert(cardemu.PlayerCard(c.master, c.cards[i].number)); err != nil {
		return err
	}
	c.in = i
	return nil
}

func (c *cardPlay) remove() {
	if c.in >= 0 {
		c.slot.Remove()
		c.in = -1
	}
}

func (c *cardPlay) close() {
	if c.slot != nil {
		c.slot.Remove()
	}
	if c.rig != nil {
		c.rig.Close()
	}
}

// admin speaks HTTP to a node's admin socket (the API `polaris-central
// players` uses).
type admin struct{ c *http.Client }

func adminAPI(sock string) admin {
	return admin{&http.Client{Timeout: 10 * time.Second, Transport: &http.Transport{
		DialContext: func(ctx context.Context, _, _ string) (net.Conn, error) {
			var d net.Dialer
			return d.DialContext(ctx, "unix", sock)
		},
	}}}
}

func (a admin) do(req *http.Request) ([]byte, error) {
	resp, err := a.c.Do(req)
	if err != nil {
		return nil, fmt.Errorf("admin %s: %w", req.URL.Path, err)
	}
	defer resp.Body.Close()
	b, _ := io.ReadAll(resp.Body)
	if resp.StatusCode != http.StatusOK {
		return nil, fmt.Errorf("admin %s: %s: %s", req.URL.Path, resp.Status, bytes.TrimSpace(b))
	}
	return b, nil
}

func (a admin) post(path string, q url.Values, body []byte) ([]byte, error) {
	req, err := http.NewRequest("POST", "http://admin/players/"+path+"?"+q.Encode(), bytes.NewReader(body))
	if err != nil {
		return nil, err
	}
	return a.do(req)
}

func (a admin) get(path string, q url.Values, v any) error {
	req, err := http.NewRequest("GET", "http://admin/players/"+path+"?"+q.Encode(), nil)
	if err != nil {
		return err
	}
	b, err := a.do(req)
	if err != nil {
		return err
	}
	return json.Unmarshal(b, v)
}

// show is an account now: its limits used and its session.
func (a admin) show(account string) (*players.Info, error) {
	var in players.Info
	return &in, a.get("show", url.Values{"account": {account}}, &in)
}

// history is the account's bets, sessions and events.
func (a admin) history(account string) ([]players.Entry, error) {
	var es []players.Entry
	return es, a.get("history", url.Values{"account": {account}, "since": {time.Unix(0, 0).UTC().Format(time.RFC3339)}}, &es)
}

// summary is what each player bet, and the daily limit's use.
func (c *cardPlay) summary() string {
	var parts []string
	for _, pc := range c.cards {
		in, err := adminAPI(c.sysAdmin()).show(pc.account)
		if err != nil {
			return "players: " + err.Error()
		}
		for _, l := range in.Limits {
			if l.Kind != players.BetsDay {
				continue
			}
			p := fmt.Sprintf("player %s bet %d", pc.account, l.Used)
			if l.Set {
				p += fmt.Sprintf(" of a daily limit of %d", l.Amount)
			}
			parts = append(parts, p)
		}
	}
	return strings.Join(parts, ", ")
}
