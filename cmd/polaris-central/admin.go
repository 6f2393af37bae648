package main

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"net"
	"net/http"
	"os"
	"strconv"
	"strings"
	"time"

	"github.com/polaris-vlt/polaris/central/reports"
	"github.com/polaris-vlt/polaris/central/server"
)

// The admin socket is a Unix socket in the data directory (mode 0600):
// whoever may read the store may also disable a cabinet. It speaks HTTP.
//
//	POST /disable?cabinet=ID&reason=TEXT   POST /enable?cabinet=ID
//	POST /time                             GET  /cabinets
//	GET  /alarms?cabinet=ID&limit=N        POST /void?cabinet=ID&round=N&reason=TEXT
//	POST /mirror/set?cabinet=ID&credit=N&reason=TEXT
//	POST /mirror/reconcile?cabinet=ID&reason=TEXT
//
// The operator actions (void, mirror) record who did them: the socket
// peer's user id as the kernel reports it, and the -operator name given.

type cabinetStatus struct {
	ID        string `json:"id"`
	Hall      string `json:"hall"`
	Enabled   bool   `json:"enabled"`
	Reason    string `json:"reason,omitempty"`
	Models    string `json:"models"`
	LastSeen  string `json:"lastSeen"`
	Rounds    int64  `json:"rounds"`
	LastRound int64  `json:"lastRound"`
}

func adminHandler(s *server.Server) http.Handler {
	mux := http.NewServeMux()
	mux.HandleFunc("POST /disable", func(w http.ResponseWriter, r *http.Request) {
		id := r.URL.Query().Get("cabinet")
		if id == "" {
			http.Error(w, "cabinet missing", http.StatusBadRequest)
			return
		}
		if err := s.Cabinets().Disable(r.Context(), id, r.URL.Query().Get("reason")); err != nil {
			http.Error(w, err.Error(), http.StatusInternalServerError)
			return
		}
		fmt.Fprintf(w, "cabinet %s disabled\n", id)
	})
	mux.HandleFunc("POST /enable", func(w http.ResponseWriter, r *http.Request) {
		id := r.URL.Query().Get("cabinet")
		if id == "" {
			http.Error(w, "cabinet missing", http.StatusBadRequest)
			return
		}
		if err := s.Cabinets().Enable(r.Context(), id); err != nil {
			http.Error(w, err.Error(), http.StatusInternalServerError)
			return
		}
		fmt.Fprintf(w, "cabinet %s enabled\n", id)
	})
	playersRoutes(mux, s)
	mux.HandleFunc("POST /time", func(w http.ResponseWriter, r *http.Request) {
		s.Links().SendTime()
		fmt.Fprintln(w, "time sent")
	})
	mux.HandleFunc("GET /cabinets", func(w http.ResponseWriter, r *http.Request) {
		rows, err := s.DB().QueryContext(r.Context(), `SELECT c.id, c.hall, c.enabled, c.reason, c.models, c.last_seen,
			(SELECT count(*) FROM rounds WHERE cabinet=c.id), (SELECT coalesce(max(round),0) FROM rounds WHERE cabinet=c.id)
			FROM cabinets c ORDER BY c.id`)
		if err != nil {
			http.Error(w, err.Error(), http.StatusInternalServerError)
			return
		}
		defer rows.Close()
		out := []cabinetStatus{}
		for rows.Next() {
			var c cabinetStatus
			var en int
			var seen int64
			if err := rows.Scan(&c.ID, &c.Hall, &en, &c.Reason, &c.Models, &seen, &c.Rounds, &c.LastRound); err != nil {
				http.Error(w, err.Error(), http.StatusInternalServerError)
				return
			}
			c.Enabled, c.LastSeen = en != 0, time.Unix(0, seen).UTC().Format(time.RFC3339)
			out = append(out, c)
		}
		w.Header().Set("Content-Type", "application/json")
		enc := json.NewEncoder(w)
		enc.SetIndent("", "  ")
		enc.Encode(out)
	})
	mux.HandleFunc("GET /alarms", func(w http.ResponseWriter, r *http.Request) {
		limit, _ := strconv.Atoi(r.URL.Query().Get("limit"))
		out, err := reports.ListAlarms(r.Context(), s.DB(), r.URL.Query().Get("cabinet"), limit)
		writeJSON(w, out, err)
	})
	mux.HandleFunc("POST /void", func(w http.ResponseWriter, r *http.Request) {
		q := r.URL.Query()
		n, err := strconv.ParseUint(q.Get("round"), 10, 64)
		if err != nil || n == 0 {
			http.Error(w, "round: not a round number: "+q.Get("round"), http.StatusBadRequest)
			return
		}
		v, err := s.Rounds().Void(r.Context(), q.Get("cabinet"), n, operator(r), q.Get("reason"))
		writeJSON(w, v, err)
	})
	mux.HandleFunc("POST /mirror/set", func(w http.ResponseWriter, r *http.Request) {
		q := r.URL.Query()
		credit, err := strconv.ParseInt(q.Get("credit"), 10, 64)
		if err != nil || credit < 0 {
			http.Error(w, "credit: not an amount in minor units: "+q.Get("credit"), http.StatusBadRequest)
			return
		}
		mc, err := s.Mirror().Set(r.Context(), q.Get("cabinet"), credit, operator(r), q.Get("reason"))
		writeJSON(w, mc, err)
	})
	mux.HandleFunc("POST /mirror/reconcile", func(w http.ResponseWriter, r *http.Request) {
		q := r.URL.Query()
		mc, err := s.Mirror().Reconcile(r.Context(), q.Get("cabinet"), operator(r), q.Get("reason"))
		writeJSON(w, mc, err)
	})
	return mux
}

// writeJSON answers v, or err: an operator's mistake (a round that is not
// open, a reason missing) as 409, anything else as 500.
func writeJSON(w http.ResponseWriter, v any, err error) {
	if err != nil {
		code := http.StatusInternalServerError
		for _, e := range []error{server.ErrNoRound, server.ErrRoundSettled, server.ErrNotVoidable, server.ErrNoReport, server.ErrMirrorBusy, server.ErrActionArgs} {
			if errors.Is(err, e) {
				code = http.StatusConflict
			}
		}
		http.Error(w, err.Error(), code)
		return
	}
	w.Header().Set("Content-Type", "application/json")
	enc := json.NewEncoder(w)
	enc.SetIndent("", "  ")
	enc.SetEscapeHTML(false) // audit texts say "before -> after"
	enc.Encode(v)
}

type connKey struct{}

// operator names who asked: the peer's uid from the kernel (not what the
// client says), and the name the client gave.
func operator(r *http.Request) string {
	who := "uid ?"
	if c, ok := r.Context().Value(connKey{}).(net.Conn); ok {
		if uid, ok := peerUID(c); ok {
			who = "uid " + strconv.Itoa(uid)
		}
	}
	if name := r.URL.Query().Get("operator"); name != "" {
		return name + " (" + who + ")"
	}
	return who
}

// serveAdmin listens on the Unix socket path (replacing a stale one).
func serveAdmin(path string, s *server.Server) (*http.Server, error) {
	os.Remove(path)
	l, err := net.Listen("unix", path)
	if err != nil {
		return nil, err
	}
	if err := os.Chmod(path, 0o600); err != nil {
		l.Close()
		return nil, err
	}
	hs := &http.Server{Handler: adminHandler(s), ReadHeaderTimeout: 10 * time.Second,
		ConnContext: func(ctx context.Context, c net.Conn) context.Context { return context.WithValue(ctx, connKey{}, c) }}
	go hs.Serve(l)
	return hs, nil
}

// adminUsage lists the admin commands.
const adminUsage = "admin [-socket PATH] [-operator NAME] disable ID [REASON] | enable ID | time | cabinets | alarms [ID] | " +
	"void ID ROUND REASON... | mirror set ID CREDIT REASON... | mirror reconcile ID REASON..."

// adminCmd is `polaris-central admin`: see adminUsage.
func adminCmd(args []string) error {
	sock, op := "data/central/admin.sock", ""
	for len(args) >= 2 && (args[0] == "-socket" || args[0] == "-operator") {
		if args[0] == "-socket" {
			sock = args[1]
		} else {
			op = args[1]
		}
		args = args[2:]
	}
	if len(args) == 0 {
		//lint:ignore ST1005 the usage line, shown as it is
		return errors.New(adminUsage)
	}
	c := adminClient(sock)
	var resp *http.Response
	var err error
	q := func(k, v string) string { return k + "=" + urlEscape(v) }
	// post sends an operator action: who (the -operator name) and why are
	// part of every one.
	post := func(path string, kv ...string) (*http.Response, error) {
		u := "http://admin/" + path + "?" + q("operator", op)
		for i := 0; i+1 < len(kv); i += 2 {
			u += "&" + q(kv[i], kv[i+1])
		}
		return c.Post(u, "text/plain", nil)
	}
	switch args[0] {
	case "disable", "enable":
		if len(args) < 2 {
			return fmt.Errorf("admin %s: cabinet id missing", args[0])
		}
		u := "http://admin/" + args[0] + "?" + q("cabinet", args[1])
		if len(args) > 2 {
			u += "&" + q("reason", strings.Join(args[2:], " "))
		}
		resp, err = c.Post(u, "text/plain", nil)
	case "time":
		resp, err = c.Post("http://admin/time", "text/plain", nil)
	case "cabinets":
		resp, err = c.Get("http://admin/cabinets")
	case "alarms":
		u := "http://admin/alarms"
		if len(args) > 1 {
			u += "?" + q("cabinet", args[1])
		}
		resp, err = c.Get(u)
	case "void":
		if len(args) < 4 {
			return errors.New("admin void: ID ROUND REASON... (the reason is required)")
		}
		resp, err = post("void", "cabinet", args[1], "round", args[2], "reason", strings.Join(args[3:], " "))
	case "mirror":
		switch {
		case len(args) >= 5 && args[1] == "set":
			resp, err = post("mirror/set", "cabinet", args[2], "credit", args[3], "reason", strings.Join(args[4:], " "))
		case len(args) >= 4 && args[1] == "reconcile":
			resp, err = post("mirror/reconcile", "cabinet", args[2], "reason", strings.Join(args[3:], " "))
		default:
			return errors.New("admin mirror: set ID CREDIT REASON... | reconcile ID REASON... (the reason is required)")
		}
	default:
		return fmt.Errorf("admin: unknown command %q (%s)", args[0], adminUsage)
	}
	if err != nil {
		return err
	}
	defer resp.Body.Close()
	b, _ := io.ReadAll(resp.Body)
	if resp.StatusCode != http.StatusOK {
		return fmt.Errorf("admin: %s: %s", resp.Status, strings.TrimSpace(string(b)))
	}
	os.Stdout.Write(b)
	return nil
}

// adminClient speaks HTTP to the admin socket.
func adminClient(sock string) *http.Client {
	return &http.Client{Timeout: 10 * time.Second, Transport: &http.Transport{
		DialContext: func(ctx context.Context, _, _ string) (net.Conn, error) {
			var d net.Dialer
			return d.DialContext(ctx, "unix", sock)
		},
	}}
}

func urlEscape(s string) string {
	var b strings.Builder
	for _, r := range []byte(s) {
		if r >= 'a' && r <= 'z' || r >= 'A' && r <= 'Z' || r >= '0' && r <= '9' || r == '-' || r == '_' || r == '.' {
			b.WriteByte(r)
		} else {
			fmt.Fprintf(&b, "%%%02X", r)
		}
	}
	return b.String()
}
