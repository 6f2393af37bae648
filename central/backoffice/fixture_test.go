package backoffice

import (
	"bytes"
	"context"
	"crypto/ed25519"
	"crypto/tls"
	"errors"
	"net/http"
	"net/http/cookiejar"
	"net/url"
	"path/filepath"
	"regexp"
	"strings"
	"testing"
	"time"

	"github.com/polaris-vlt/polaris/central/internal/testenv"
	"github.com/polaris-vlt/polaris/central/link"
	"github.com/polaris-vlt/polaris/central/pki"
	"github.com/polaris-vlt/polaris/central/players"
	"github.com/polaris-vlt/polaris/central/server"

	"github.com/polaris-vlt/polaris/internal/poll"
)

// rig is a real central server (testenv: real gRPC over TLS, real SQLite)
// with the console on loopback TLS, two halls with one cabinet each, and
// one user of each role.
type rig struct {
	t       *testing.T
	e       *testenv.Env
	con     *Console
	url     string
	caPool  *tls.Config
	cabs    map[string]*link.Client
	jackpot *testenv.Jackpots
	// registerKey signs exclusion register files for the import form.
	registerKey ed25519.PrivateKey
	reg         *players.Registry
}

// echoCards stands in for the card scheme (central/players tests it): a
// card answers a challenge with the challenge itself.
type echoCards struct{}

func (echoCards) Verify(card string, ch, resp []byte) error {
	if !bytes.Equal(ch, resp) {
		return errors.New("wrong answer")
	}
	return nil
}

const password = "correct horse battery"

var users = []struct{ name, role, halls string }{
	{"alice", RoleAdmin, ""},
	{"bob", RoleAdmin, ""},
	{"petr", RoleManager, "praha-1"},
	{"jana", RoleManager, "brno-1"},
	{"eva", RoleAuditor, ""},
	{"karel", RoleAttendant, "praha-1"},
}

func newRig(t *testing.T) *rig {
	t.Helper()
	jp := &testenv.Jackpots{HitOneIn: 4}
	// The demo market: player accounts without a card requirement, so the
	// cabinets' anonymous rounds still play.
	prof, err := players.ProfileFor("demo")
	if err != nil {
		t.Fatal(err)
	}
	regPub, regKey, err := ed25519.GenerateKey(nil)
	if err != nil {
		t.Fatal(err)
	}
	var e *testenv.Env
	var reg *players.Registry
	reg, err = players.New(players.Config{Profile: prof, HashKey: make([]byte, 32), Cards: echoCards{}, RegisterKey: regPub,
		Now: func() time.Time { return e.Clock.Now() }})
	if err != nil {
		t.Fatal(err)
	}
	e = testenv.Start(t, func(c *server.Config) {
		c.Halls = map[string]string{"CAB-PRAHA": "praha-1", "CAB-BRNO": "brno-1"}
		c.Jackpots = jp
		c.Players = reg
		c.NodeID = "node-a"
	})
	con, err := New(context.Background(), Options{Server: e.Server, Now: e.Clock.Now, LiveRefresh: time.Second})
	if err != nil {
		t.Fatal(err)
	}
	for _, u := range users {
		var halls []string
		if u.halls != "" {
			halls = strings.Split(u.halls, ",")
		}
		if err := con.AddUser(context.Background(), "", u.name, password, u.role, halls); err != nil {
			t.Fatal(err)
		}
	}
	tc, err := TLSConfig(e.PKI)
	if err != nil {
		t.Fatal(err)
	}
	hs, addr, err := con.ListenTLS("127.0.0.1:0", tc)
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { hs.Close() })
	pool, err := pki.LoadPool(filepath.Join(e.PKI, pki.CACert))
	if err != nil {
		t.Fatal(err)
	}
	r := &rig{t: t, e: e, con: con, url: "https://" + addr.String(), caPool: &tls.Config{RootCAs: pool, ServerName: "localhost"},
		cabs: map[string]*link.Client{}, jackpot: jp, registerKey: regKey, reg: reg}
	for _, id := range []string{"CAB-PRAHA", "CAB-BRNO"} {
		c := e.Client(id, func(cfg *link.Config) {
			cfg.Credit = func() (link.CreditMeters, error) { return link.CreditMeters{BillsIn: 100000, Credit: 100000}, nil }
			// The cabinet's clock 1.5 s ahead of the server's (the link
			// statistics show the offset) and a software version.
			cfg.Clock, cfg.Version = e.Clock.Ahead(cabinetAhead), cabinetVersion
		})
		r.cabs[id] = c
		ctx, cancel := context.WithCancel(context.Background())
		go c.Run(ctx)
		t.Cleanup(cancel)
	}
	return r
}

const (
	cabinetAhead   = 1500 * time.Millisecond
	cabinetVersion = "polaris 1.4.0-test"
)

// rigStart is testenv's clock at the start.
var rigStart = time.Date(2026, 11, 29, 12, 0, 0, 0, time.UTC)

var nextRound = map[string]uint64{}

// play draws and commits n rounds at stake 10 on cabinet id (the clock
// moves a minute a round); it returns how many awarded a jackpot.
func (r *rig) play(id string, n int) (jackpots int) {
	r.t.Helper()
	c := r.cabs[id]
	ctx, cancel := context.WithTimeout(context.Background(), poll.Scaled(30*time.Second))
	defer cancel()
	for range n {
		nextRound[id]++
		o, err := c.RequestOutcome(ctx, nextRound[id], testenv.GameID, testenv.TheGame.ModelID(), 10)
		if err != nil {
			r.t.Fatalf("%s round %d: %v", id, nextRound[id], err)
		}
		if o.Jackpot != nil {
			jackpots++
		}
		if err := c.CommitOutcome(ctx, nextRound[id]); err != nil {
			r.t.Fatal(err)
		}
		r.e.Clock.Advance(time.Minute)
	}
	return jackpots
}

// client is a browser-like HTTPS client with its own cookie jar.
func (r *rig) client() *http.Client {
	jar, _ := cookiejar.New(nil)
	return &http.Client{Jar: jar, Transport: &http.Transport{TLSClientConfig: r.caPool},
		CheckRedirect: func(*http.Request, []*http.Request) error { return http.ErrUseLastResponse }}
}

var csrfField = regexp.MustCompile(`name="csrf" value="([0-9a-f]+)"`)

func csrfOf(t *testing.T, body string) string {
	t.Helper()
	m := csrfField.FindStringSubmatch(body)
	if m == nil {
		t.Fatalf("no CSRF token in the page:\n%.500s", body)
	}
	return m[1]
}

// login logs name in and returns its client and the session's CSRF token.
func (r *rig) login(name string) (*http.Client, string) {
	r.t.Helper()
	c := r.client()
	st, body := r.get(c, "/login")
	if st != 200 {
		r.t.Fatalf("login page: %d", st)
	}
	st, _ = r.post(c, "/login", url.Values{"csrf": {csrfOf(r.t, body)}, "user": {name}, "password": {password}})
	if st != http.StatusSeeOther {
		r.t.Fatalf("login %s: %d", name, st)
	}
	st, body = r.get(c, "/")
	if st != 200 {
		r.t.Fatalf("dashboard after login of %s: %d", name, st)
	}
	return c, csrfOf(r.t, body)
}

func (r *rig) get(c *http.Client, path string) (int, string) {
	r.t.Helper()
	resp, err := c.Get(r.url + path)
	if err != nil {
		r.t.Fatal(err)
	}
	defer resp.Body.Close()
	var b strings.Builder
	buf := make([]byte, 32<<10)
	for {
		n, err := resp.Body.Read(buf)
		b.Write(buf[:n])
		if err != nil {
			break
		}
	}
	return resp.StatusCode, b.String()
}

func (r *rig) post(c *http.Client, path string, v url.Values) (int, string) {
	r.t.Helper()
	resp, err := c.PostForm(r.url+path, v)
	if err != nil {
		r.t.Fatal(err)
	}
	defer resp.Body.Close()
	var b strings.Builder
	buf := make([]byte, 32<<10)
	for {
		n, err := resp.Body.Read(buf)
		b.Write(buf[:n])
		if err != nil {
			break
		}
	}
	return resp.StatusCode, b.String()
}

func (r *rig) auditCount(action string) int {
	return r.e.Count("bo_audit", "action = ?", action)
}
