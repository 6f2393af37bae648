package escposemu

import "testing"

type nullDev struct{ stop chan struct{} }

func (d nullDev) Read(p []byte) (int, error)  { <-d.stop; return 0, errClosed }
func (d nullDev) Write(p []byte) (int, error) { return len(p), nil }

type closedErr struct{}

func (closedErr) Error() string { return "closed" }

var errClosed = closedErr{}

// The device-side ESC/POS parser never panics, and every command it
// consumes makes progress, on any input.
func FuzzEmulatorInput(f *testing.F) {
	f.Add([]byte("\x1b@\x1bt\x12ahoj\n\x1dk\x46\x0200\x1dVB\x00"))
	f.Add([]byte("\x1dk\x05123\x00\x10\x04\x01\x1dr\x01"))
	f.Add([]byte("\x1d\x21"))
	f.Add([]byte("\x1d(k\x06\x001P0XYZ\x1d(k\x03\x001Q0\x1dv0\x00\x01\x00\x02\x00XY\x1b*\x21\x02\x00XYZXYZ"))
	f.Add([]byte("\x1b&\x03AA\x02XYZXYZ\x1cq\x01\x01\x00\x01\x00XYZXYZXY\x1d8L\x02\x00\x00\x000E\x1dkI\x04{C\x0c\x22"))
	f.Fuzz(func(t *testing.T, in []byte) {
		d := nullDev{make(chan struct{})}
		e := New(d, Options{})
		close(d.stop)
		e.Close() // stop the engine; drive the parser by hand
		e.done = make(chan struct{})
		e.receive(in)
		e.mu.Lock()
		defer e.mu.Unlock()
		for steps := 0; len(e.queue) > 0; steps++ {
			if e.offline() {
				return
			}
			n, _ := e.step()
			if n == 0 {
				return // incomplete command at the end
			}
			if n > len(e.queue) {
				t.Fatalf("consumed %d of %d bytes", n, len(e.queue))
			}
			e.queue = e.queue[n:]
		}
	})
}
