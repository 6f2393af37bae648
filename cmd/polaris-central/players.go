package main

import (
	"bytes"
	"crypto/ed25519"
	"encoding/base64"
	"encoding/json"
	"errors"
	"flag"
	"fmt"
	"io"
	"log/slog"
	"net/http"
	"os"
	"strconv"
	"strings"
	"time"

	"github.com/polaris-vlt/polaris/central/pki"
	"github.com/polaris-vlt/polaris/central/players"
	"github.com/polaris-vlt/polaris/central/proto/refusal"
	"github.com/polaris-vlt/polaris/central/server"
)

// The players' admin routes (the same Go API the back office uses):
//
//	POST /players/register            body: players.Registration (JSON)
//	POST /players/card?account=A&card=C        POST /players/card-block?card=C&reason=R
//	POST /players/block?account=A&reason=R     (reason empty: unblock)
//	POST /players/close?account=A
//	POST /players/limits?account=A&kind=K&amount=N|none
//	GET  /players/show?account=A
//	POST /players/import-exclusions   body: the signed register file
//	GET  /players/history?account=A&since=RFC3339&until=RFC3339
//	GET  /players/reviews?all=1       POST /players/review?id=N&decision=same|different&by=STAFF&note=T
func playersRoutes(mux *http.ServeMux, s *server.Server) {
	reg := func(w http.ResponseWriter) *players.Registry {
		r, _ := s.Players().(*players.Registry)
		if r == nil {
			http.Error(w, "this central system keeps no player accounts (no [players] configuration)", http.StatusNotFound)
		}
		return r
	}
	answer := func(w http.ResponseWriter, v any, err error) {
		if err != nil {
			code := http.StatusInternalServerError
			if _, ok := players.AsRefusal(err); ok {
				code = http.StatusConflict
			}
			http.Error(w, err.Error(), code)
			return
		}
		w.Header().Set("Content-Type", "application/json")
		enc := json.NewEncoder(w)
		enc.SetIndent("", "  ")
		enc.Encode(v)
	}
	type done struct {
		OK string `json:"ok"`
	}
	handle := func(pattern string, fn func(r *players.Registry, req *http.Request) (any, error)) {
		mux.HandleFunc(pattern, func(w http.ResponseWriter, req *http.Request) {
			if p := reg(w); p != nil {
				v, err := fn(p, req)
				answer(w, v, err)
			}
		})
	}
	arg := func(req *http.Request, k string) string { return req.URL.Query().Get(k) }
	handle("POST /players/register", func(p *players.Registry, req *http.Request) (any, error) {
		var g players.Registration
		dec := json.NewDecoder(io.LimitReader(req.Body, 1<<16))
		dec.DisallowUnknownFields()
		if err := dec.Decode(&g); err != nil {
			return nil, &players.Refusal{Reason: refusal.PlayerInvalid, Message: "registration: " + err.Error()}
		}
		return p.Register(req.Context(), g)
	})
	handle("POST /players/card", func(p *players.Registry, req *http.Request) (any, error) {
		return done{"card issued"}, p.IssueCard(req.Context(), arg(req, "account"), arg(req, "card"))
	})
	handle("POST /players/card-block", func(p *players.Registry, req *http.Request) (any, error) {
		return done{"card blocked"}, p.BlockCard(req.Context(), arg(req, "card"), arg(req, "reason"))
	})
	handle("POST /players/block", func(p *players.Registry, req *http.Request) (any, error) {
		return done{"account block: " + arg(req, "reason")}, p.Block(req.Context(), arg(req, "account"), arg(req, "reason"))
	})
	handle("POST /players/close", func(p *players.Registry, req *http.Request) (any, error) {
		return done{"account closed"}, p.Close(req.Context(), arg(req, "account"))
	})
	handle("POST /players/limits", func(p *players.Registry, req *http.Request) (any, error) {
		var amount *int64
		if a := arg(req, "amount"); a != "none" {
			v, err := strconv.ParseInt(a, 10, 64)
			if err != nil {
				return nil, &players.Refusal{Reason: refusal.PlayerInvalid, Message: fmt.Sprintf("amount %q: a whole number of minor units or none", a)}
			}
			amount = &v
		}
		return p.SetLimit(req.Context(), arg(req, "account"), arg(req, "kind"), amount)
	})
	handle("GET /players/show", func(p *players.Registry, req *http.Request) (any, error) {
		return p.Show(req.Context(), arg(req, "account"))
	})
	handle("POST /players/import-exclusions", func(p *players.Registry, req *http.Request) (any, error) {
		b, err := io.ReadAll(io.LimitReader(req.Body, 256<<20))
		if err != nil {
			return nil, err
		}
		return p.ImportExclusions(req.Context(), b)
	})
	handle("GET /players/history", func(p *players.Registry, req *http.Request) (any, error) {
		since, until := time.Time{}, time.Now().Add(24*time.Hour)
		for _, t := range []struct {
			k string
			v *time.Time
		}{{"since", &since}, {"until", &until}} {
			if s := arg(req, t.k); s != "" {
				v, err := time.Parse(time.RFC3339, s)
				if err != nil {
					return nil, &players.Refusal{Reason: refusal.PlayerInvalid, Message: fmt.Sprintf("%s %q: RFC 3339", t.k, s)}
				}
				*t.v = v
			}
		}
		return p.History(req.Context(), arg(req, "account"), since, until)
	})
	handle("GET /players/reviews", func(p *players.Registry, req *http.Request) (any, error) {
		return p.Reviews(req.Context(), arg(req, "all") != "")
	})
	handle("POST /players/review", func(p *players.Registry, req *http.Request) (any, error) {
		id, err := strconv.ParseInt(arg(req, "id"), 10, 64)
		if err != nil {
			return nil, &players.Refusal{Reason: refusal.PlayerInvalid, Message: fmt.Sprintf("review %q: a number", arg(req, "id"))}
		}
		return p.DecideReview(req.Context(), id, arg(req, "decision"), arg(req, "by"), arg(req, "note"))
	})
}

const playersUsage = `players [-socket PATH] COMMAND
  register -name NAME -birth YYYY-MM-DD -doc NUMBER -verified-by CLERK
  card ACCOUNT CARD            issue a card      card-block CARD REASON...
  block ACCOUNT REASON...      unblock ACCOUNT   close ACCOUNT
  limits ACCOUNT KIND AMOUNT|none   (KIND: bets_day, bets_month, loss_day, loss_month)
  show ACCOUNT                 history ACCOUNT [SINCE [UNTIL]] (RFC 3339)
  import-exclusions FILE
  reviews [all]                probable matches waiting for staff (all: decided too)
  review ID same|different STAFF NOTE...   decide one (STAFF: who decided)`

// playersCmd is `polaris-central players ...` over the admin socket.
func playersCmd(args []string) error {
	sock := "data/central/admin.sock"
	if len(args) >= 2 && args[0] == "-socket" {
		sock, args = args[1], args[2:]
	}
	if len(args) == 0 {
		return errors.New(playersUsage)
	}
	c := adminClient(sock)
	q := func(kv ...string) string {
		var b strings.Builder
		for i := 0; i+1 < len(kv); i += 2 {
			if i > 0 {
				b.WriteByte('&')
			}
			b.WriteString(kv[i] + "=" + urlEscape(kv[i+1]))
		}
		return b.String()
	}
	need := func(n int) error {
		if len(args) < n+1 {
			return fmt.Errorf("players %s: missing arguments\n%s", args[0], playersUsage)
		}
		return nil
	}
	var resp *http.Response
	var err error
	post := func(path, query string, body []byte) {
		resp, err = c.Post("http://admin/players/"+path+"?"+query, "application/octet-stream", bytes.NewReader(body))
	}
	switch args[0] {
	case "register":
		fs := flag.NewFlagSet("players register", flag.ContinueOnError)
		var g players.Registration
		fs.StringVar(&g.Name, "name", "", "name as on the identity document")
		fs.StringVar(&g.BirthDate, "birth", "", "date of birth, YYYY-MM-DD")
		fs.StringVar(&g.DocumentNumber, "doc", "", "identity document number (only its keyed hash is stored)")
		fs.StringVar(&g.VerifiedBy, "verified-by", "", "the clerk who verified the identity document")
		if err := fs.Parse(args[1:]); err != nil {
			return err
		}
		g.IdentityVerified = g.VerifiedBy != ""
		b, _ := json.Marshal(g)
		post("register", "", b)
	case "card":
		if err := need(2); err != nil {
			return err
		}
		post("card", q("account", args[1], "card", args[2]), nil)
	case "card-block":
		if err := need(2); err != nil {
			return err
		}
		post("card-block", q("card", args[1], "reason", strings.Join(args[2:], " ")), nil)
	case "block":
		if err := need(2); err != nil {
			return err
		}
		post("block", q("account", args[1], "reason", strings.Join(args[2:], " ")), nil)
	case "unblock", "close":
		if err := need(1); err != nil {
			return err
		}
		path := "close"
		if args[0] == "unblock" {
			path = "block"
		}
		post(path, q("account", args[1], "reason", ""), nil)
	case "limits":
		if err := need(3); err != nil {
			return err
		}
		post("limits", q("account", args[1], "kind", args[2], "amount", args[3]), nil)
	case "show":
		if err := need(1); err != nil {
			return err
		}
		resp, err = c.Get("http://admin/players/show?" + q("account", args[1]))
	case "history":
		if err := need(1); err != nil {
			return err
		}
		kv := []string{"account", args[1]}
		if len(args) > 2 {
			kv = append(kv, "since", args[2])
		}
		if len(args) > 3 {
			kv = append(kv, "until", args[3])
		}
		resp, err = c.Get("http://admin/players/history?" + q(kv...))
	case "reviews":
		all := ""
		if len(args) > 1 && args[1] == "all" {
			all = "1"
		}
		resp, err = c.Get("http://admin/players/reviews?" + q("all", all))
	case "review":
		if err := need(3); err != nil {
			return err
		}
		post("review", q("id", args[1], "decision", args[2], "by", args[3], "note", strings.Join(args[4:], " ")), nil)
	case "import-exclusions":
		if err := need(1); err != nil {
			return err
		}
		b, rerr := os.ReadFile(args[1])
		if rerr != nil {
			return rerr
		}
		post("import-exclusions", "", b)
	default:
		return fmt.Errorf("players: unknown command %q\n%s", args[0], playersUsage)
	}
	if err != nil {
		return err
	}
	defer resp.Body.Close()
	b, _ := io.ReadAll(resp.Body)
	if resp.StatusCode != http.StatusOK {
		return fmt.Errorf("players: %s: %s", resp.Status, strings.TrimSpace(string(b)))
	}
	os.Stdout.Write(b)
	return nil
}

// PlayersConfig is the [players] section: registered players, their cards
// and limits (central/players). Absent: no player accounts.
type PlayersConfig struct {
	Market string `toml:"market"` // cz, at, demo: the rules (players.ProfileFor)
	// HashKey keys the hashes of identity document numbers (at least 32
	// bytes, 0600): outside the data directory, so that a copy of the
	// store alone does not reveal them.
	HashKey string `toml:"hash_key"`
	// CardMasterKey derives the player cards' keys (0600).
	CardMasterKey string `toml:"card_master_key"`
	// RegisterKey is the exclusion register's Ed25519 public key, base64.
	RegisterKey string `toml:"register_key"`
	// MaxPlay, Break and BreakWarning replace the market's continuous-play
	// rule (Go durations): for test rigs and the crash harness, whose runs
	// must reach a break in minutes. An operator's file leaves them out.
	MaxPlay      string `toml:"max_play"`
	Break        string `toml:"break"`
	BreakWarning string `toml:"break_warning"`
}

// loadPlayers makes the registry [players] asks for (nil: no section).
func loadPlayers(c *PlayersConfig, log *slog.Logger) (server.Players, error) {
	if c == nil {
		return nil, nil
	}
	prof, err := players.ProfileFor(c.Market)
	if err != nil {
		return nil, err
	}
	for _, o := range []struct {
		name, v string
		d       *time.Duration
	}{{"max_play", c.MaxPlay, &prof.MaxPlay}, {"break", c.Break, &prof.Break}, {"break_warning", c.BreakWarning, &prof.Warn}} {
		if o.v == "" {
			continue
		}
		d, err := time.ParseDuration(o.v)
		if err != nil || d <= 0 {
			return nil, fmt.Errorf("[players] %s %q: a positive Go duration", o.name, o.v)
		}
		*o.d = d
	}
	if (c.MaxPlay != "" || c.Break != "" || c.BreakWarning != "") && log != nil {
		log.Warn("players: the continuous-play rule is the configuration's, not the market's", "market", c.Market,
			"max_play", prof.MaxPlay, "break", prof.Break, "warning", prof.Warn)
	}
	secret := func(name, path string) ([]byte, error) {
		if path == "" {
			return nil, fmt.Errorf("[players] %s missing", name)
		}
		if err := pki.CheckPrivateFile(path); err != nil {
			return nil, fmt.Errorf("[players] %s: %w", name, err)
		}
		b, err := os.ReadFile(path)
		if err != nil {
			return nil, err
		}
		if len(b) < 32 {
			return nil, fmt.Errorf("[players] %s %s: %d bytes, at least 32", name, path, len(b))
		}
		return b, nil
	}
	hashKey, err := secret("hash_key", c.HashKey)
	if err != nil {
		return nil, err
	}
	master, err := secret("card_master_key", c.CardMasterKey)
	if err != nil {
		return nil, err
	}
	rk, err := base64.StdEncoding.DecodeString(strings.TrimSpace(c.RegisterKey))
	if err != nil || len(rk) != ed25519.PublicKeySize {
		return nil, errors.New("[players] register_key: not the base64 of an Ed25519 public key")
	}
	cards, err := players.CardAuth(master)
	if err != nil {
		return nil, fmt.Errorf("[players]: %w", err)
	}
	return players.New(players.Config{Profile: prof, HashKey: hashKey, Cards: cards, RegisterKey: ed25519.PublicKey(rk), Now: time.Now, Log: log})
}
