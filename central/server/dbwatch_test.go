package server

import (
	"bytes"
	"fmt"
	"log/slog"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/polaris-vlt/polaris/internal/pgcluster"
	"github.com/polaris-vlt/polaris/internal/poll"
)

type syncBuf struct {
	mu sync.Mutex
	b  bytes.Buffer
}

func (w *syncBuf) Write(p []byte) (int, error) {
	w.mu.Lock()
	defer w.mu.Unlock()
	return w.b.Write(p)
}

func (w *syncBuf) String() string {
	w.mu.Lock()
	defer w.mu.Unlock()
	return w.b.String()
}

// The database watch logs the primary reached, lost when the server is
// killed, and reached again (with how long it was down) once it is back:
// one line each.
func TestWatchDatabaseLogsLossAndReturn(t *testing.T) {
	cl := pgcluster.ForTest(t)
	var buf syncBuf
	stop := watchDatabase(cl.URL("postgres")+"&connect_timeout=2", slog.New(slog.NewTextHandler(&buf, nil)), 20*time.Millisecond)
	defer stop()
	waitFor := func(what string) {
		t.Helper()
		poll.Until(t, 30*time.Second, fmt.Sprintf("%q in the log", what), func() bool { return strings.Contains(buf.String(), what) },
			func() string { return "the log:\n" + buf.String() })
	}
	waitFor(`msg="database primary reached" addr=127.0.0.1:`)
	if err := cl.Kill(); err != nil {
		t.Fatal(err)
	}
	waitFor(`msg="database primary lost`)
	if err := cl.StartAgain(); err != nil {
		t.Fatal(err)
	}
	waitFor(`msg="database primary reached again"`)
	stop()
	if n := strings.Count(buf.String(), "primary lost"); n != 1 {
		t.Fatalf("%d lost lines, want 1:\n%s", n, buf.String())
	}
	if !strings.Contains(buf.String(), " down=") {
		t.Fatalf("no down time in:\n%s", buf.String())
	}
	t.Log("\n" + buf.String())
}
