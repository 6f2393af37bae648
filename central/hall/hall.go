package hall

import (
	"embed"
	"encoding/json"
	"fmt"
	"io/fs"
	"net/http"
	"strconv"
	"sync/atomic"
	"time"

	"github.com/polaris-vlt/polaris/central/jackpot"
)

// Feed is where the values come from; *jackpot.Live implements it (so does
// the tests' FakeFeed).
type Feed interface {
	// Board is what a screen in hall shows ("" = every pool).
	Board(hall string) jackpot.Board
	// Subscribe signals (coalesced) after values change; cancel closes it.
	Subscribe() (changed <-chan struct{}, cancel func())
}

// Options tune the page.
type Options struct {
	Title     string        // page heading; default "Magic Stars Jackpot"
	Heartbeat time.Duration // SSE keep-alive comment interval; default 15 s
	// MaxFeeds bounds the live feeds (/events) open at once (default
	// DefaultMaxFeeds): more are answered 503 with Retry-After.
	MaxFeeds int
}

// DefaultMaxFeeds is Options.MaxFeeds' default: a hall has a few screens.
const DefaultMaxFeeds = 256

//go:embed web
var web embed.FS

// View is the JSON the page receives: every amount already formatted.
type View struct {
	Hall  string      `json:"hall"`
	Title string      `json:"title"`
	Pools []PoolView  `json:"pools"`
	Fixed []FixedView `json:"fixed"`
	At    string      `json:"at"` // RFC 3339, UTC
}

// PoolView is one progressive pool.
type PoolView struct {
	ID   string `json:"id"`
	Name string `json:"name"`
	CZK  string `json:"czk"`           // "123 456 Kč" (whole crowns, rounded down)
	EUR  string `json:"eur,omitempty"` // "≈ 4 938,24 €"; empty without a rate
	Hits int64  `json:"hits"`
}

// FixedView is Wish Upon a Star's fixed jackpots at one stake (WS-10).
type FixedView struct {
	Stake string `json:"stake"`
	Mini  string `json:"mini"`
	Minor string `json:"minor"`
	Major string `json:"major"`
	Grand string `json:"grand"`
}

// NewView formats a Board.
func NewView(hall, title string, b jackpot.Board) View {
	v := View{Hall: hall, Title: title, Pools: []PoolView{}, Fixed: []FixedView{}, At: b.At.UTC().Format(time.RFC3339)}
	for _, p := range b.Pools {
		czk, _ := p.Value.Crowns()
		name := p.Name
		if name == "" {
			name = p.ID
		}
		pv := PoolView{ID: p.ID, Name: name, CZK: CZK(czk), Hits: p.Hits}
		if b.CZKPerEUR > 0 {
			pv.EUR = "≈" + nbsp + EUR(CZKToEURCents(czk, b.CZKPerEUR))
		}
		v.Pools = append(v.Pools, pv)
	}
	for _, f := range b.Fixed {
		v.Fixed = append(v.Fixed, FixedView{Stake: EUR(int64(f.Stake)), Mini: EUR(int64(f.Mini)), Minor: EUR(int64(f.Minor)), Major: EUR(int64(f.Major)), Grand: EUR(int64(f.Grand))})
	}
	return v
}

type handler struct {
	feed  Feed
	opt   Options
	mux   *http.ServeMux
	feeds atomic.Int64 // /events open
}

// Handler serves the display. Mount it under any prefix with
// http.StripPrefix; every link is relative. Paths: / (the page, ?hall=ID
// for one hall's pool), /events (text/event-stream), /values.json.
func Handler(f Feed, o Options) http.Handler {
	if o.Title == "" {
		o.Title = "Magic Stars Jackpot"
	}
	if o.Heartbeat <= 0 {
		o.Heartbeat = 15 * time.Second
	}
	if o.MaxFeeds <= 0 {
		o.MaxFeeds = DefaultMaxFeeds
	}
	h := &handler{feed: f, opt: o, mux: http.NewServeMux()}
	static, _ := fs.Sub(web, "web")
	files := http.FileServerFS(static)
	h.mux.HandleFunc("GET /events", h.events)
	h.mux.HandleFunc("GET /values.json", h.values)
	h.mux.Handle("GET /", files)
	return h
}

func (h *handler) ServeHTTP(w http.ResponseWriter, r *http.Request) {
	// Nothing but this page's own files, and the event stream, may load.
	w.Header().Set("Content-Security-Policy", "default-src 'self'; img-src 'self' data:; base-uri 'none'; form-action 'none'; frame-ancestors 'self'")
	w.Header().Set("X-Content-Type-Options", "nosniff")
	w.Header().Set("Referrer-Policy", "no-referrer")
	h.mux.ServeHTTP(w, r)
}

func (h *handler) view(r *http.Request) View {
	hall := r.URL.Query().Get("hall")
	return NewView(hall, h.opt.Title, h.feed.Board(hall))
}

func (h *handler) values(w http.ResponseWriter, r *http.Request) {
	w.Header().Set("Content-Type", "application/json; charset=utf-8")
	w.Header().Set("Cache-Control", "no-store")
	_ = json.NewEncoder(w).Encode(h.view(r))
}

// events streams the view: once at connection, then after every change,
// with a comment line as keep-alive so proxies and the browser keep the
// connection; EventSource reconnects by itself after a cut.
func (h *handler) events(w http.ResponseWriter, r *http.Request) {
	if h.feeds.Add(1) > int64(h.opt.MaxFeeds) {
		h.feeds.Add(-1)
		w.Header().Set("Retry-After", "10")
		http.Error(w, "too many live feeds", http.StatusServiceUnavailable)
		return
	}
	defer h.feeds.Add(-1)
	rc := http.NewResponseController(w)
	changed, cancel := h.feed.Subscribe() // before the first read: no change slips between
	defer cancel()
	w.Header().Set("Content-Type", "text/event-stream; charset=utf-8")
	w.Header().Set("Cache-Control", "no-store")
	w.Header().Set("X-Accel-Buffering", "no")
	w.WriteHeader(http.StatusOK)
	id := 0
	send := func() error {
		id++
		b, err := json.Marshal(h.view(r))
		if err != nil {
			return err
		}
		if _, err := fmt.Fprintf(w, "id: %s\nevent: board\ndata: %s\n\n", strconv.Itoa(id), b); err != nil {
			return err
		}
		return rc.Flush()
	}
	if _, err := fmt.Fprint(w, "retry: 2000\n\n"); err != nil {
		return
	}
	if err := send(); err != nil {
		return
	}
	beat := time.NewTicker(h.opt.Heartbeat)
	defer beat.Stop()
	for {
		select {
		case <-r.Context().Done():
			return
		case _, ok := <-changed:
			if !ok {
				return
			}
			if send() != nil {
				return
			}
		case <-beat.C:
			if _, err := fmt.Fprint(w, ": keep-alive\n\n"); err != nil || rc.Flush() != nil {
				return
			}
		}
	}
}
