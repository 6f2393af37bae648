package server

import (
	"context"
	"time"

	"github.com/jackc/pgx/v5"
)

// ChangesChannel is the PostgreSQL notification channel on which a
// transaction that changed shared in-memory state (a jackpot pool) says so;
// every node listens and runs its Committed hook, so the hall page and the
// cabinet streams of every node see a pool change made through any node.
const ChangesChannel = "polaris_changed"

// listen follows ChangesChannel on its own connection until the store
// closes, calling changed on each notification and after each (re)connect
// (notifications sent while it was away are lost: reloading covers them).
func (st *store) listen(url string, changed func()) {
	defer st.wg.Done()
	ctx, cancel := context.WithCancel(context.Background())
	go func() { <-st.quit; cancel() }()
	wait := 100 * time.Millisecond
	for ctx.Err() == nil {
		conn, err := pgx.Connect(ctx, url)
		if err == nil {
			_, err = conn.Exec(ctx, "LISTEN "+ChangesChannel)
		}
		if err == nil {
			wait = 100 * time.Millisecond
			changed()
			for err == nil {
				if _, err = conn.WaitForNotification(ctx); err == nil {
					changed()
				}
			}
		}
		if conn != nil {
			conn.Close(context.Background())
		}
		select {
		case <-ctx.Done():
		case <-time.After(wait):
		}
		wait = min(2*wait, 2*time.Second)
	}
}
