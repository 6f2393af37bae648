package server

import (
	"context"
	"log/slog"
	"time"

	"github.com/jackc/pgx/v5"
)

// watchDatabase keeps one connection of its own to a PostgreSQL store's
// writable primary and logs, one line each, when this node loses it and
// when it reaches a writable primary again (which address, after how
// long): what the operator at 3 a.m. reads to see a failover from a
// node's side. It does not serve anything: the store's pool reconnects by
// itself (a broken connection is dropped, the next one is dialled through
// the URL, which with several hosts and target_session_attrs=read-write
// finds the promoted replica), and the watch only says when.
//
// It checks every interval; a loss is logged at the first failed check,
// with the check's error. stop ends it.
func watchDatabase(url string, log *slog.Logger, interval time.Duration) (stop func()) {
	ctx, cancel := context.WithCancel(context.Background())
	done := make(chan struct{})
	go func() {
		defer close(done)
		var conn *pgx.Conn
		defer func() {
			if conn != nil {
				conn.Close(context.Background())
			}
		}()
		var lostAt, said time.Time
		up := false
		lastErr := ""
		for ctx.Err() == nil {
			var err error
			if conn == nil {
				cctx, ccancel := context.WithTimeout(ctx, 3*time.Second)
				conn, err = pgx.Connect(cctx, url)
				ccancel()
				if err != nil {
					conn = nil
				}
			}
			if conn != nil {
				pctx, pcancel := context.WithTimeout(ctx, 2*time.Second)
				var recovery bool
				err = conn.QueryRow(pctx, "SELECT pg_is_in_recovery()").Scan(&recovery)
				pcancel()
				if err == nil && recovery {
					err = errReadOnly
				}
				if err != nil {
					conn.Close(context.Background())
					conn = nil
				}
			}
			if ctx.Err() != nil {
				return
			}
			switch {
			case err == nil && !up:
				addr := conn.PgConn().Conn().RemoteAddr().String()
				if lostAt.IsZero() {
					log.Info("database primary reached", "addr", addr)
				} else {
					log.Warn("database primary reached again", "addr", addr, "down", time.Since(lostAt).Round(time.Millisecond))
				}
				up, lastErr = true, ""
			case err != nil && up:
				lostAt, said = time.Now(), time.Now()
				log.Error("database primary lost: rounds are answered UNAVAILABLE (the cabinets ask again) until it is back", "err", err)
				up, lastErr = false, err.Error()
			case err != nil && lostAt.IsZero():
				lostAt, said, lastErr = time.Now(), time.Now(), err.Error()
				log.Error("database primary unreachable at start", "err", err)
			case err != nil && err.Error() != lastErr && time.Since(said) >= time.Second:
				// Still down, for another reason (e.g. refused, then a
				// standby not yet promoted): a line per change, at most
				// one a second.
				log.Warn("database primary still unreachable", "err", err, "since", time.Since(lostAt).Round(time.Millisecond))
				said, lastErr = time.Now(), err.Error()
			}
			select {
			case <-ctx.Done():
			case <-time.After(interval):
			}
		}
	}()
	return func() { cancel(); <-done }
}

type readOnlyError struct{}

func (readOnlyError) Error() string {
	return "connected to a standby (in recovery), not a writable primary"
}

var errReadOnly error = readOnlyError{}
