package rtdebug

import (
	"encoding/json"
	"net/http"
	"os"
	"runtime"
	"strings"
	"testing"
)

func TestListenLoopbackOnly(t *testing.T) {
	for _, addr := range []string{"0.0.0.0:0", ":0", "[::]:0", "192.0.2.1:0", "nonsense"} {
		if _, err := Listen(addr); err == nil {
			t.Errorf("Listen(%q) accepted a non-loopback address", addr)
		}
	}
	a, err := Listen("127.0.0.1:0")
	if err != nil {
		t.Fatal(err)
	}
	resp, err := http.Get("http://" + a.String() + "/debug/runtime?gc=1")
	if err != nil {
		t.Fatal(err)
	}
	defer resp.Body.Close()
	var s Stats
	if err := json.NewDecoder(resp.Body).Decode(&s); err != nil {
		t.Fatal(err)
	}
	if s.HeapInuse == 0 || s.Goroutines == 0 || s.NumGC == 0 || s.Live == 0 || s.Live > s.HeapInuse || s.Total < s.HeapInuse || s.Stacks == 0 {
		t.Errorf("runtime numbers %+v", s)
	}
}

// Without the endpoint the process keeps no heap-profile records; asking
// for the endpoint turns the runtime's own rate back on.
func TestProfileRecordsOnlyWithTheEndpoint(t *testing.T) {
	if strings.Contains(os.Getenv("GODEBUG"), "memprofilerate=") {
		t.Skip("GODEBUG sets the rate")
	}
	if runtime.MemProfileRate != 0 {
		t.Fatalf("heap-profile rate %d without the endpoint, want 0", runtime.MemProfileRate)
	}
	// The rate is the process's: put it back for the next run (-count).
	t.Cleanup(func() { runtime.MemProfileRate = 0 })
	if err := Flag("test")("127.0.0.1:0"); err != nil {
		t.Fatal(err)
	}
	if runtime.MemProfileRate != defaultProfileRate || defaultProfileRate == 0 {
		t.Fatalf("heap-profile rate %d with the endpoint, want the runtime's %d", runtime.MemProfileRate, defaultProfileRate)
	}
}
