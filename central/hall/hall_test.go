package hall

import (
	"bufio"
	"context"
	"database/sql"
	"encoding/json"
	"net/http"
	"net/http/httptest"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"github.com/polaris-vlt/polaris/central/jackpot"
	"github.com/polaris-vlt/polaris/central/jackpot/jpserver"
	"github.com/polaris-vlt/polaris/engine"
	"github.com/polaris-vlt/polaris/engine/draw"

	_ "modernc.org/sqlite"

	"github.com/polaris-vlt/polaris/internal/poll"
)

func TestValuesAndEvents(t *testing.T) {
	feed := NewFakeFeed(board(5_000_0000, 0))
	srv := httptest.NewServer(Handler(feed, Options{Heartbeat: time.Hour}))
	defer srv.Close()
	defer srv.CloseClientConnections()

	resp, err := http.Get(srv.URL + "/values.json?hall=praha-1")
	if err != nil {
		t.Fatal(err)
	}
	var v View
	json.NewDecoder(resp.Body).Decode(&v)
	resp.Body.Close()
	if !strings.HasPrefix(resp.Header.Get("Content-Security-Policy"), "default-src 'self'") {
		t.Fatalf("CSP %q", resp.Header.Get("Content-Security-Policy"))
	}
	if v.Hall != "praha-1" || len(v.Pools) != 1 || v.Pools[0].CZK != "5\u00a0000\u00a0Kč" || v.Pools[0].EUR != "≈\u00a0200,00\u00a0€" || len(v.Fixed) != 7 {
		t.Fatalf("view %+v", v)
	}

	for _, p := range []string{"/", "/app.js", "/style.css"} {
		resp, err := http.Get(srv.URL + p)
		if err != nil || resp.StatusCode != 200 {
			t.Fatalf("%s: %v %v", p, resp.Status, err)
		}
		resp.Body.Close()
	}

	ctx, cancel := context.WithTimeout(context.Background(), poll.Scaled(10*time.Second))
	defer cancel()
	req, _ := http.NewRequestWithContext(ctx, "GET", srv.URL+"/events", nil)
	resp, err = http.DefaultClient.Do(req)
	if err != nil {
		t.Fatal(err)
	}
	defer resp.Body.Close()
	if ct := resp.Header.Get("Content-Type"); !strings.HasPrefix(ct, "text/event-stream") {
		t.Fatalf("content type %q", ct)
	}
	rd := bufio.NewReader(resp.Body)
	next := func() View {
		t.Helper()
		for {
			line, err := rd.ReadString('\n')
			if err != nil {
				t.Fatal(err)
			}
			if data, ok := strings.CutPrefix(line, "data: "); ok {
				var v View
				if err := json.Unmarshal([]byte(data), &v); err != nil {
					t.Fatal(err)
				}
				return v
			}
		}
	}
	if v := next(); v.Pools[0].CZK != "5\u00a0000\u00a0Kč" {
		t.Fatalf("first event %+v", v)
	}
	feed.Set(board(7_000_0000, 0))
	if v := next(); v.Pools[0].CZK != "7\u00a0000\u00a0Kč" {
		t.Fatalf("second event %+v", v)
	}
	// No rate: no EUR line.
	b := board(7_000_0000, 0)
	b.CZKPerEUR = 0
	if v := NewView("", "t", b); v.Pools[0].EUR != "" {
		t.Fatalf("EUR without a rate: %q", v.Pools[0].EUR)
	}
}

// TestLiveIsAFeed: the jackpot's in-memory values drive the page.
func TestLiveIsAFeed(t *testing.T) {
	var _ Feed = (*jackpot.Live)(nil)
}

// The server's adapter feeds the page directly (polaris-central mounts it).
var _ Feed = (*jpserver.Adapter)(nil)

// TestJackpotLiveOverSSE: a game played on a real SQLite store reaches the
// page's event stream through jackpot.Live, filtered by hall.
func TestJackpotLiveOverSSE(t *testing.T) {
	cfg, err := jackpot.ParseTOML([]byte(`
czk_per_eur_centi = 2500
[[pool]]
id = "system"
scope = "system"
seed = 1000
must_hit_by = 100000
rate_bp = 100
[[pool]]
id = "praha"
name = "Jackpot Praha"
scope = "hall"
halls = ["praha-1"]
seed = 5000
must_hit_by = 100000
rate_bp = 100
[[hall]]
id = "praha-1"
cabinets = ["CAB-1"]
`))
	if err != nil {
		t.Fatal(err)
	}
	j, err := jackpot.New(cfg, func() time.Time { return time.Date(2026, 11, 29, 12, 0, 0, 0, time.UTC) })
	if err != nil {
		t.Fatal(err)
	}
	db, err := sql.Open("sqlite", "file:"+filepath.Join(t.TempDir(), "c.db")+"?_pragma=journal_mode(WAL)&_txlock=immediate")
	if err != nil {
		t.Fatal(err)
	}
	defer db.Close()
	ctx := context.Background()
	if err := j.Init(ctx, db); err != nil {
		t.Fatal(err)
	}
	live := jackpot.NewLive(j)
	srv := httptest.NewServer(Handler(live, Options{Heartbeat: time.Hour}))
	defer srv.Close()
	defer srv.CloseClientConnections()

	cctx, cancel := context.WithTimeout(ctx, poll.Scaled(10*time.Second))
	defer cancel()
	req, _ := http.NewRequestWithContext(cctx, "GET", srv.URL+"/events?hall=praha-1", nil)
	resp, err := http.DefaultClient.Do(req)
	if err != nil {
		t.Fatal(err)
	}
	defer resp.Body.Close()
	rd := bufio.NewReader(resp.Body)
	next := func() View {
		t.Helper()
		for {
			line, err := rd.ReadString('\n')
			if err != nil {
				t.Fatal(err)
			}
			if data, ok := strings.CutPrefix(line, "data: "); ok {
				var v View
				if err := json.Unmarshal([]byte(data), &v); err != nil {
					t.Fatal(err)
				}
				return v
			}
		}
	}
	if v := next(); len(v.Pools) != 1 || v.Pools[0].ID != "praha" || v.Pools[0].CZK != CZK(5000) {
		t.Fatalf("first event %+v", v)
	}
	tx, _ := db.Begin()
	out, err := j.Play(ctx, tx, jackpot.Game{Cabinet: "CAB-1", Round: 1, Game: engine.MagicStars, Stake: 1000}, draw.NewSeeded(1, 1))
	if err != nil || out.Hit {
		t.Fatalf("%+v %v", out, err)
	}
	tx.Commit()
	live.Apply(out)
	if v := next(); v.Pools[0].CZK != CZK(5010) || v.Pools[0].EUR != "≈"+nbsp+EUR(20040) {
		t.Fatalf("after a 1 000 CZK game: %+v", v)
	}
}

// The live feeds are bounded: one beyond Options.MaxFeeds is 503 with
// Retry-After; a feed closed frees its place.
func TestLiveFeedsBounded(t *testing.T) {
	feed := NewFakeFeed(board(5_000_0000, 0))
	srv := httptest.NewServer(Handler(feed, Options{Heartbeat: time.Hour, MaxFeeds: 2}))
	defer srv.Close()
	defer srv.CloseClientConnections()
	var open []*http.Response
	for i := 0; i < 2; i++ {
		resp, err := http.Get(srv.URL + "/events")
		if err != nil || resp.StatusCode != http.StatusOK {
			t.Fatalf("feed %d: %v %v", i, resp, err)
		}
		open = append(open, resp)
	}
	resp, err := http.Get(srv.URL + "/events")
	if err != nil || resp.StatusCode != http.StatusServiceUnavailable || resp.Header.Get("Retry-After") == "" {
		t.Fatalf("a third feed: %v %v", resp, err)
	}
	resp.Body.Close()
	open[0].Body.Close()
	// Asked every 20 ms (each a feed opened) until the server has seen
	// the closed feed go.
	for deadline := time.Now().Add(poll.Scaled(5 * time.Second)); ; time.Sleep(20 * time.Millisecond) {
		resp, err := http.Get(srv.URL + "/events")
		if err == nil && resp.StatusCode == http.StatusOK {
			resp.Body.Close()
			break
		}
		if resp != nil {
			resp.Body.Close()
		}
		if time.Now().After(deadline) {
			t.Fatal("a closed feed's place never came free")
		}
	}
	open[1].Body.Close()
}
