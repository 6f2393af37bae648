// Package rtdebug is the debug endpoint the binaries open only when asked
// (-debug-addr): net/http/pprof's profiles and a JSON line of the Go
// runtime's numbers the soak test samples. It is off in production: no
// unit or profile passes the flag, and it listens on loopback only.
package rtdebug

import (
	"encoding/json"
	"fmt"
	"net"
	"net/http"
	"net/http/pprof"
	"os"
	"runtime"
	"strings"
)

// Stats is what /debug/runtime returns.
type Stats struct {
	HeapInuse   uint64 `json:"heap_inuse"`   // bytes in in-use heap spans (runtime.MemStats.HeapInuse)
	HeapObjects uint64 `json:"heap_objects"` // live plus unswept objects
	Goroutines  int    `json:"goroutines"`
	NumGC       uint32 `json:"num_gc"`
}

// Read reads the runtime's numbers. ReadMemStats stops the world briefly;
// sampled every few seconds that is noise.
func Read() Stats {
	var m runtime.MemStats
	runtime.ReadMemStats(&m)
	return Stats{HeapInuse: m.HeapInuse, HeapObjects: m.HeapObjects, Goroutines: runtime.NumGoroutine(), NumGC: m.NumGC}
}

// Handler serves /debug/pprof/… and /debug/runtime.
func Handler() http.Handler {
	mux := http.NewServeMux()
	mux.HandleFunc("/debug/pprof/", pprof.Index)
	mux.HandleFunc("/debug/pprof/cmdline", pprof.Cmdline)
	mux.HandleFunc("/debug/pprof/profile", pprof.Profile)
	mux.HandleFunc("/debug/pprof/symbol", pprof.Symbol)
	mux.HandleFunc("/debug/pprof/trace", pprof.Trace)
	mux.HandleFunc("/debug/runtime", func(w http.ResponseWriter, r *http.Request) {
		if r.URL.Query().Get("gc") == "1" {
			runtime.GC() // a sample of what is live, not of what awaits collection
		}
		w.Header().Set("Content-Type", "application/json")
		json.NewEncoder(w).Encode(Read())
	})
	return mux
}

// Listen serves Handler on addr, which must be a loopback address (the
// profiles show memory contents and must not leave the machine). It
// returns the address bound (addr may end in :0).
func Listen(addr string) (net.Addr, error) {
	host, _, err := net.SplitHostPort(addr)
	if err != nil {
		return nil, fmt.Errorf("debug address %q: %w", addr, err)
	}
	if ip := net.ParseIP(host); !(host == "localhost" || ip != nil && ip.IsLoopback()) {
		return nil, fmt.Errorf("debug address %q: only loopback (127.0.0.1, ::1, localhost)", addr)
	}
	l, err := net.Listen("tcp", addr)
	if err != nil {
		return nil, err
	}
	go http.Serve(l, Handler())
	return l.Addr(), nil
}

// Flag is a flag.Func body: it starts the endpoint when the flag is
// parsed and says where on stderr (the soak tool reads that line when it
// asked for port 0).
func Flag(prog string) func(string) error {
	return func(addr string) error {
		// One sample per 4 KiB allocated rather than per 512 KiB: a leak
		// of a few hundred bytes a round shows in a heap profile within
		// minutes. It costs some CPU, which the debug endpoint may.
		runtime.MemProfileRate = 4096
		a, err := Listen(strings.TrimSpace(addr))
		if err != nil {
			return err
		}
		fmt.Fprintf(os.Stderr, "%s: debug endpoint on http://%s/debug/\n", prog, a)
		return nil
	}
}
