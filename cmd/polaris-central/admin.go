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
	"strings"
	"time"

	"github.com/polaris-vlt/polaris/central/server"
)

// The admin socket is a Unix socket in the data directory (mode 0600):
// whoever may read the store may also disable a cabinet. It speaks HTTP.
//
//	POST /disable?cabinet=ID&reason=TEXT   POST /enable?cabinet=ID
//	POST /time                             GET  /cabinets

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
		if err := s.Disable(r.Context(), id, r.URL.Query().Get("reason")); err != nil {
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
		if err := s.Enable(r.Context(), id); err != nil {
			http.Error(w, err.Error(), http.StatusInternalServerError)
			return
		}
		fmt.Fprintf(w, "cabinet %s enabled\n", id)
	})
	playersRoutes(mux, s)
	mux.HandleFunc("POST /time", func(w http.ResponseWriter, r *http.Request) {
		s.SendTime()
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
	return mux
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
	hs := &http.Server{Handler: adminHandler(s), ReadHeaderTimeout: 10 * time.Second}
	go hs.Serve(l)
	return hs, nil
}

// adminCmd is `polaris-central admin -socket PATH disable|enable|time|cabinets [ID [REASON]]`.
func adminCmd(args []string) error {
	sock := "data/central/admin.sock"
	if len(args) >= 2 && args[0] == "-socket" {
		sock, args = args[1], args[2:]
	}
	if len(args) == 0 {
		return errors.New("admin: disable ID [REASON] | enable ID | time | cabinets")
	}
	c := adminClient(sock)
	var resp *http.Response
	var err error
	q := func(k, v string) string { return k + "=" + urlEscape(v) }
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
	default:
		return fmt.Errorf("admin: unknown command %q", args[0])
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
