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
	"runtime/metrics"
	"strings"
)

// Stats is what /debug/runtime returns. The memory classes are
// runtime/metrics' (they add up to Total, everything the Go runtime has
// mapped); what the process holds beyond Total (RSS minus Total plus
// Released) is not Go's: the binary's pages and C-style allocations, such
// as the ones modernc SQLite's libc makes for its page cache.
type Stats struct {
	HeapInuse   uint64 `json:"heap_inuse"`   // bytes in in-use heap spans (runtime.MemStats.HeapInuse)
	HeapObjects uint64 `json:"heap_objects"` // live plus unswept objects
	Goroutines  int    `json:"goroutines"`
	NumGC       uint32 `json:"num_gc"`

	Live     uint64 `json:"live"`      // /gc/heap/live:bytes, the heap the last GC marked live: after a forced GC, exactly what is reachable
	Objects  uint64 `json:"objects"`   // /memory/classes/heap/objects:bytes: live plus not yet swept
	Unused   uint64 `json:"unused"`    // /memory/classes/heap/unused:bytes: free slots in in-use spans (fragmentation)
	Free     uint64 `json:"free"`      // /memory/classes/heap/free:bytes: free spans still mapped and resident
	Released uint64 `json:"released"`  // /memory/classes/heap/released:bytes: free spans returned to the system
	NObjects uint64 `json:"n_objects"` // /gc/heap/objects:objects
	Stacks   uint64 `json:"stacks"`    // /memory/classes/heap/stacks:bytes plus /memory/classes/os-stacks:bytes
	Other    uint64 `json:"other"`     // /memory/classes/other:bytes
	Metadata uint64 `json:"metadata"`  // /memory/classes/metadata/...: spans, mcaches, GC's own data
	Profile  uint64 `json:"profile"`   // /memory/classes/profiling/buckets:bytes: the heap profile's stacks
	Goal     uint64 `json:"goal"`      // /gc/heap/goal:bytes
	Total    uint64 `json:"total"`     // /memory/classes/total:bytes

	// BySize is, with ?classes=1, the objects in use per size class
	// (allocated minus freed, from MemStats.BySize): which sizes hold the
	// spans when HeapInuse grows and the live heap does not.
	BySize []SizeClass `json:"by_size,omitempty"`
}

// SizeClass is one size class's objects in use.
type SizeClass struct {
	Size    uint32 `json:"size"`
	Objects uint64 `json:"objects"`
}

var metricNames = []string{
	"/gc/heap/live:bytes",
	"/memory/classes/heap/objects:bytes",
	"/memory/classes/heap/unused:bytes",
	"/memory/classes/heap/free:bytes",
	"/memory/classes/heap/released:bytes",
	"/gc/heap/objects:objects",
	"/memory/classes/heap/stacks:bytes",
	"/memory/classes/os-stacks:bytes",
	"/memory/classes/other:bytes",
	"/memory/classes/metadata/mcache/free:bytes",
	"/memory/classes/metadata/mcache/inuse:bytes",
	"/memory/classes/metadata/mspan/free:bytes",
	"/memory/classes/metadata/mspan/inuse:bytes",
	"/memory/classes/metadata/other:bytes",
	"/memory/classes/profiling/buckets:bytes",
	"/gc/heap/goal:bytes",
	"/memory/classes/total:bytes",
}

// Read reads the runtime's numbers. ReadMemStats stops the world briefly;
// sampled every few seconds that is noise.
func Read(classes bool) Stats {
	var m runtime.MemStats
	runtime.ReadMemStats(&m)
	s := Stats{HeapInuse: m.HeapInuse, HeapObjects: m.HeapObjects, Goroutines: runtime.NumGoroutine(), NumGC: m.NumGC}
	ms := make([]metrics.Sample, len(metricNames))
	for i, n := range metricNames {
		ms[i].Name = n
	}
	metrics.Read(ms)
	v := map[string]uint64{}
	for _, x := range ms {
		if x.Value.Kind() == metrics.KindUint64 {
			v[x.Name] = x.Value.Uint64()
		}
	}
	s.Live, s.Objects, s.Unused = v[metricNames[0]], v[metricNames[1]], v[metricNames[2]]
	s.Free, s.Released, s.NObjects = v[metricNames[3]], v[metricNames[4]], v[metricNames[5]]
	s.Stacks, s.Other = v[metricNames[6]]+v[metricNames[7]], v[metricNames[8]]
	for _, n := range metricNames[9:14] {
		s.Metadata += v[n]
	}
	s.Profile, s.Goal, s.Total = v[metricNames[14]], v[metricNames[15]], v[metricNames[16]]
	if classes {
		for _, c := range m.BySize {
			if c.Mallocs > c.Frees {
				s.BySize = append(s.BySize, SizeClass{Size: c.Size, Objects: c.Mallocs - c.Frees})
			}
		}
	}
	return s
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
		json.NewEncoder(w).Encode(Read(r.URL.Query().Get("classes") == "1"))
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

// defaultProfileRate is the runtime's own heap-profile rate.
var defaultProfileRate = runtime.MemProfileRate

// A binary without the endpoint keeps no heap-profile records: each
// sampled stack and size keeps one for the life of the process, so a
// cabinet running for months would grow by them for nothing (no one can
// read them without -debug-addr). GODEBUG=memprofilerate=N still rules.
func init() {
	if !strings.Contains(os.Getenv("GODEBUG"), "memprofilerate=") {
		runtime.MemProfileRate = 0
	}
}

// Flag is a flag.Func body: it starts the endpoint when the flag is
// parsed and says where on stderr (the soak tool reads that line when it
// asked for port 0).
func Flag(prog string) func(string) error {
	return func(addr string) error {
		// The heap profile's rate stays the runtime's (one sample per
		// 512 KiB) unless GODEBUG=memprofilerate=N says otherwise: each
		// sampled stack and size keeps a record for the life of the
		// process, and at one sample per 4 KiB these records grew the
		// resident memory the soak judges by megabytes (issue 23).
		a, err := Listen(strings.TrimSpace(addr))
		if err != nil {
			return err
		}
		if runtime.MemProfileRate == 0 && !strings.Contains(os.Getenv("GODEBUG"), "memprofilerate=") {
			runtime.MemProfileRate = defaultProfileRate
		}
		fmt.Fprintf(os.Stderr, "%s: debug endpoint on http://%s/debug/\n", prog, a)
		return nil
	}
}
