package rtdebug

import (
	"encoding/json"
	"net/http"
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
