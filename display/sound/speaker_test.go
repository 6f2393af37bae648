//go:build display

package sound

import (
	"context"
	"encoding/binary"
	"fmt"
	"math"
	"os"
	"os/exec"
	"path/filepath"
	"sync/atomic"
	"syscall"
	"testing"
	"time"

	"github.com/polaris-vlt/polaris/childproc"
	"github.com/polaris-vlt/polaris/firmware/view"
	"github.com/polaris-vlt/polaris/internal/hosttools"
	// the package has a const poll (the speaker's snapshot period)
	ipoll "github.com/polaris-vlt/polaris/internal/poll"
)

// The sound leaves the process: a PulseAudio server with a null sink,
// started by the test in a private runtime directory; the speaker plays
// through ebiten → oto → ALSA → ALSA's pulse plugin (an ALSA
// configuration the test writes) → the server; parec records the sink's
// monitor, and the recording holds the door alarm: loud, for ≥ 1.5 s.
func TestSoundReachesAnAudioServer(t *testing.T) {
	pulse := hosttools.Need(t, "pulseaudio")
	pactl := hosttools.Need(t, "pactl")
	parec := hosttools.Need(t, "parec")
	dir, err := os.MkdirTemp("", "polaris-pulse-")
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { os.RemoveAll(dir) })
	if err := os.Chmod(dir, 0o700); err != nil {
		t.Fatal(err)
	}
	alsa := filepath.Join(dir, "asound.conf")
	conf := "</usr/share/alsa/alsa.conf>\npcm.!default { type pulse }\nctl.!default { type pulse }\n"
	if err := os.WriteFile(alsa, []byte(conf), 0o600); err != nil {
		t.Fatal(err)
	}
	// The server, its clients (parec, pactl) and ALSA's plugin in this
	// process all find each other through these; HOME keeps the server's
	// cookie and state out of the real one.
	t.Setenv("XDG_RUNTIME_DIR", dir)
	t.Setenv("HOME", dir)
	t.Setenv("PULSE_SERVER", "unix:"+filepath.Join(dir, "pulse", "native"))
	t.Setenv("ALSA_CONFIG_PATH", alsa)

	ctx, cancel := context.WithTimeout(context.Background(), ipoll.Scaled(time.Minute))
	defer cancel()
	srv := exec.Command(pulse, "--daemonize=no", "--exit-idle-time=-1", "-n",
		"--load=module-null-sink sink_name=null", "--load=module-native-protocol-unix")
	srvLog, _ := os.Create(filepath.Join(dir, "pulseaudio.log"))
	srv.Stdout, srv.Stderr = srvLog, srvLog
	// The server ends with the test (childproc): stopped at its end, and
	// by the kernel should the test binary die first.
	if err := childproc.Start(srv, syscall.SIGTERM); err != nil {
		t.Fatal(err)
	}
	srvExited := childproc.Waiter(srv)
	t.Cleanup(func() { childproc.Stop(srv, srvExited, syscall.SIGTERM, 5*time.Second) })
	// The server answers; asked every 100 ms (each ask is a process).
	for deadline := time.Now().Add(ipoll.Scaled(10 * time.Second)); exec.CommandContext(ctx, pactl, "info").Run() != nil; time.Sleep(100 * time.Millisecond) {
		if time.Now().After(deadline) {
			b, _ := os.ReadFile(srvLog.Name())
			t.Fatalf("the audio server did not come up in %v: %s", ipoll.Scaled(10*time.Second), b)
		}
	}
	recFile := filepath.Join(dir, "rec.raw")
	rec := exec.CommandContext(ctx, parec, "-d", "null.monitor", "--raw", "--format=s16le", "--rate=48000", "--channels=1", "--latency-msec=20", "--process-time-msec=10", recFile)
	if err := childproc.Start(rec, syscall.SIGTERM); err != nil {
		t.Fatal(err)
	}
	// parec records before the alarm starts: the null sink's monitor gives
	// silence all the time, so its file grows.
	recorded := func() int64 {
		fi, err := os.Stat(recFile)
		if err != nil {
			return 0
		}
		return fi.Size()
	}
	ipoll.Until(t, 10*time.Second, "parec recording (its file growing)", func() bool { return recorded() > 0 })

	var snap atomic.Pointer[view.Snapshot]
	base := &view.Snapshot{Mode: view.ModeIdle, Now: time.Now(), Credit: 1000, Sound: view.Sound{Volume: 100}}
	snap.Store(base)
	sp, err := Start(snap.Load)
	if err != nil {
		t.Fatal(err)
	}
	// The device opens asynchronously (ALSA, the plugin, the server):
	// the alarm is played once the device takes samples.
	ipoll.Until(t, 10*time.Second, "the audio device to take 300 ms of samples",
		func() bool { return sp.Mixer.Rendered() >= 300*time.Millisecond })
	t.Logf("the device took its first samples %v after the start", time.Since(base.Now))
	open := *base
	open.Mode, open.Doors, open.Now = view.ModeDoorOpen, []string{"main"}, time.Now()
	rendered, size := sp.Mixer.Rendered(), recorded()
	snap.Store(&open)
	// The recording stops while the speaker still plays (silence after
	// the alarm): the speaker has rendered the alarm and a second more, and
	// parec has recorded as much audio since the door opened, so the
	// server has delivered the alarm's tail to parec.
	span := AlarmLength + time.Second
	ipoll.Until(t, span+10*time.Second, "the alarm and a second after it played and recorded", func() bool {
		return sp.Mixer.Rendered() >= rendered+span && recorded() >= size+int64(span.Seconds()*Rate)*2
	}, func() string {
		return fmt.Sprintf("rendered %v, recorded %d bytes since the door opened", sp.Mixer.Rendered()-rendered, recorded()-size)
	})
	rec.Process.Signal(os.Interrupt)
	rec.Wait()
	if err := sp.Close(); err != nil {
		t.Errorf("closing the speaker: %v", err)
	}

	raw, err := os.ReadFile(recFile)
	if err != nil {
		t.Fatal(err)
	}
	x := make([]float32, len(raw)/2)
	for i := range x {
		x[i] = float32(int16(binary.LittleEndian.Uint16(raw[2*i:]))) / 32768
	}
	var sum float64
	for _, v := range x {
		sum += float64(v) * float64(v)
	}
	rms := math.Sqrt(sum / float64(max(len(x), 1)))
	span, gap := audible(x)
	t.Logf("recorded %v: peak %.3f, RMS %.3f, audible for %v (longest gap %v)",
		time.Duration(len(x))*time.Second/Rate, peak(x), rms, span, gap)
	if peak(x) < 0.2 || rms < 0.05 {
		t.Fatalf("the recording from the audio server is silent: peak %.3f, RMS %.3f", peak(x), rms)
	}
	if span < 1500*time.Millisecond {
		t.Fatalf("the alarm came out for %v, want ≥ 1.5 s", span)
	}
}
