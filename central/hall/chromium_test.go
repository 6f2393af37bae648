package hall

import (
	"bufio"
	"encoding/json"
	"fmt"
	"net/http"
	"net/http/httptest"
	"os/exec"
	"regexp"
	"strings"
	"sync"
	"syscall"
	"testing"
	"time"

	"github.com/polaris-vlt/polaris/childproc"
	"github.com/polaris-vlt/polaris/internal/poll"

	"golang.org/x/net/websocket"

	"github.com/polaris-vlt/polaris/central/jackpot"
	"github.com/polaris-vlt/polaris/internal/hosttools"
)

// chromiumPath finds the browser (internal/hosttools: a failure under make
// test and CI, a skip elsewhere).
func chromiumPath(t *testing.T) string {
	return hosttools.Need(t, "chromium", "chromium-browser", "google-chrome")
}

// cdp is a minimal Chrome DevTools Protocol client: numbered requests over
// a websocket, replies matched by id, events ignored.
type cdp struct {
	ws   *websocket.Conn
	mu   sync.Mutex
	next int
	wait map[int]chan json.RawMessage
	errs map[int]string
}

func dialCDP(t *testing.T, url string) *cdp {
	ws, err := websocket.Dial(url, "", "http://127.0.0.1/")
	if err != nil {
		t.Fatalf("devtools websocket: %v", err)
	}
	c := &cdp{ws: ws, wait: map[int]chan json.RawMessage{}, errs: map[int]string{}}
	go func() {
		for {
			var m struct {
				ID     int             `json:"id"`
				Result json.RawMessage `json:"result"`
				Error  *struct {
					Message string `json:"message"`
				} `json:"error"`
			}
			if err := websocket.JSON.Receive(ws, &m); err != nil {
				c.mu.Lock()
				for id, ch := range c.wait {
					c.errs[id] = "connection closed: " + err.Error()
					close(ch)
					delete(c.wait, id)
				}
				c.mu.Unlock()
				return
			}
			if m.ID == 0 {
				continue
			}
			c.mu.Lock()
			if ch, ok := c.wait[m.ID]; ok {
				if m.Error != nil {
					c.errs[m.ID] = m.Error.Message
				}
				ch <- m.Result
				delete(c.wait, m.ID)
			}
			c.mu.Unlock()
		}
	}()
	t.Cleanup(func() { ws.Close() })
	return c
}

func (c *cdp) call(t *testing.T, method string, params any) json.RawMessage {
	t.Helper()
	c.mu.Lock()
	c.next++
	id := c.next
	ch := make(chan json.RawMessage, 1)
	c.wait[id] = ch
	c.mu.Unlock()
	if err := websocket.JSON.Send(c.ws, map[string]any{"id": id, "method": method, "params": params}); err != nil {
		t.Fatalf("%s: %v", method, err)
	}
	select {
	case res := <-ch:
		c.mu.Lock()
		msg := c.errs[id]
		c.mu.Unlock()
		if msg != "" {
			t.Fatalf("%s: %s", method, msg)
		}
		return res
	case <-poll.After(15 * time.Second):
		t.Fatalf("%s: no reply", method)
	}
	return nil
}

// eval returns a JavaScript expression's value as a string.
func (c *cdp) eval(t *testing.T, expr string) string {
	t.Helper()
	res := c.call(t, "Runtime.evaluate", map[string]any{"expression": "String(" + expr + ")", "returnByValue": true})
	var r struct {
		Result struct {
			Value string `json:"value"`
		} `json:"result"`
		Exception *struct {
			Text string `json:"text"`
		} `json:"exceptionDetails"`
	}
	if err := json.Unmarshal(res, &r); err != nil {
		t.Fatal(err)
	}
	if r.Exception != nil {
		t.Fatalf("%s: %s", expr, r.Exception.Text)
	}
	return r.Result.Value
}

// waitFor polls expr until it equals want.
func (c *cdp) waitFor(t *testing.T, expr, want string, within time.Duration) {
	t.Helper()
	got := ""
	poll.Until(t, within, fmt.Sprintf("%s = %q", expr, want), func() bool { got = c.eval(t, expr); return got == want },
		func() string { return fmt.Sprintf("%s = %q", expr, got) })
}

// startChromium runs headless Chromium with the DevTools protocol on a free
// port and returns the websocket URL of its page.
func startChromium(t *testing.T) string {
	bin := chromiumPath(t)
	cmd := exec.Command(bin, "--headless", "--no-sandbox", "--disable-gpu", "--disable-quic",
		"--no-first-run", "--disable-background-networking", "--disable-component-update", "--disable-sync",
		"--disable-dev-shm-usage", "--remote-allow-origins=*",
		"--user-data-dir="+t.TempDir(), "--remote-debugging-address=127.0.0.1", "--remote-debugging-port=0", "about:blank")
	// Its own process group, so that the zygote and renderers end with it;
	// and killed if the test binary dies first (a -timeout panic): childproc.
	stderr, err := cmd.StderrPipe()
	if err != nil {
		t.Fatal(err)
	}
	if err := childproc.Start(cmd, syscall.SIGKILL); err != nil {
		t.Fatalf("start chromium: %v", err)
	}
	t.Cleanup(func() {
		syscall.Kill(-cmd.Process.Pid, syscall.SIGKILL)
		cmd.Wait()
	})
	found := make(chan string, 1)
	var log strings.Builder
	go func() {
		re := regexp.MustCompile(`DevTools listening on (ws://[^\s]+)`)
		sc := bufio.NewScanner(stderr)
		for sc.Scan() {
			if m := re.FindStringSubmatch(sc.Text()); m != nil {
				found <- m[1]
			} else if log.Len() < 4000 {
				log.WriteString(sc.Text() + "\n")
			}
		}
	}()
	var browserWS string
	select {
	case browserWS = <-found:
	case <-poll.After(20 * time.Second):
		t.Fatalf("chromium did not start its DevTools endpoint:\n%s", log.String())
	}
	// The page target of about:blank, from the HTTP list beside the socket.
	host := strings.TrimPrefix(browserWS, "ws://")
	host = host[:strings.Index(host, "/")]
	var targets []struct {
		Type string `json:"type"`
		WS   string `json:"webSocketDebuggerUrl"`
	}
	// Asked every 50 ms: chromium lists the page soon after its socket.
	for deadline := time.Now().Add(poll.Scaled(5 * time.Second)); time.Now().Before(deadline); time.Sleep(50 * time.Millisecond) {
		resp, err := http.Get("http://" + host + "/json/list")
		if err == nil {
			json.NewDecoder(resp.Body).Decode(&targets)
			resp.Body.Close()
			for _, tg := range targets {
				if tg.Type == "page" {
					return tg.WS
				}
			}
		}
	}
	t.Fatal("no page target in chromium")
	return ""
}

func board(value jackpot.Units, hits int64) jackpot.Board {
	return jackpot.Board{
		At:        time.Date(2026, 11, 29, 18, 0, 0, 0, time.UTC),
		Pools:     []jackpot.PoolValue{{ID: "praha", Name: "Jackpot Praha", Value: value, Hits: hits}},
		Fixed:     jackpot.WishStarFixed(nil),
		CZKPerEUR: 2500,
	}
}

// TestPageLiveInChromium loads the page in a real headless Chromium, then
// pushes new values through the feed and reads them from the page's DOM: the
// page changes without being reloaded, over server-sent events.
func TestPageLiveInChromium(t *testing.T) {
	t0 := time.Now()
	wsURL := startChromium(t)
	t.Logf("chromium up after %v", time.Since(t0))
	feed := NewFakeFeed(board(123_456_7891, 0)) // 123 456.7891 CZK
	srv := httptest.NewServer(http.StripPrefix("/hall", Handler(feed, Options{Title: "Magic Stars Jackpot", Heartbeat: time.Second})))
	defer srv.Close()
	defer srv.CloseClientConnections() // the page's event stream stays open otherwise

	c := dialCDP(t, wsURL)
	c.call(t, "Page.navigate", map[string]any{"url": srv.URL + "/hall/?hall=praha-1"})
	czk := `(document.querySelector('[data-pool="praha"] .czk') || {}).textContent`
	eur := `(document.querySelector('[data-pool="praha"] .eur') || {}).textContent`
	nb := func(s string) string { return strings.ReplaceAll(s, " ", "\u00a0") }

	start := time.Now()
	c.waitFor(t, czk, nb("123 456 Kč"), 20*time.Second)
	t.Logf("page shows the first value after %v", time.Since(start))
	c.waitFor(t, eur, nb("≈ 4 938,24 €"), time.Second)
	c.waitFor(t, "document.body.dataset.state", "live", 5*time.Second)
	c.waitFor(t, `document.querySelectorAll('#fixed-rows tr').length`, "7", time.Second)
	c.waitFor(t, `document.querySelector('#fixed-rows tr:last-child .grand').textContent`, nb("5 000,00 €"), time.Second)
	c.waitFor(t, `document.querySelector('#fixed-rows tr:first-child .mini').textContent`, nb("5,00 €"), time.Second)
	if n := feed.Subscribers(); n != 1 {
		t.Fatalf("%d open event streams, want the page's 1", n)
	}
	loads := c.eval(t, "performance.getEntriesByType('navigation').length + ':' + performance.timeOrigin")

	// Push after the page has loaded: the DOM must follow, without a reload.
	for i, v := range []jackpot.Units{124_000_0000, 124_001_0000, 1_000_000_0000} {
		feed.Set(board(v, 0))
		want := []string{"124 000 Kč", "124 001 Kč", "1 000 000 Kč"}[i]
		c.waitFor(t, czk, nb(want), 5*time.Second)
	}
	c.waitFor(t, eur, nb("≈ 40 000,00 €"), time.Second)

	// A hit: the pool resets and the card shows it.
	feed.Set(board(20_000_0000, 1))
	c.waitFor(t, czk, nb("20 000 Kč"), 5*time.Second)
	c.waitFor(t, `document.querySelector('[data-pool="praha"]').classList.contains('hit')`, "true", time.Second)

	if again := c.eval(t, "performance.getEntriesByType('navigation').length + ':' + performance.timeOrigin"); again != loads {
		t.Fatalf("the page was reloaded (%s → %s)", loads, again)
	}
	t.Logf("all values shown after %v", time.Since(start))
	// Nothing but the page's own origin was fetched.
	origin := strings.TrimPrefix(srv.URL, "http://")
	res := c.eval(t, `performance.getEntriesByType('resource').map(e => e.name).join(' ')`)
	for _, u := range strings.Fields(res) {
		if !strings.HasPrefix(u, "http://"+origin+"/") {
			t.Errorf("the page fetched %s", u)
		}
	}
}
