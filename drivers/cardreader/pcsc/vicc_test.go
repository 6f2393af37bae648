package pcsc_test

import (
	"bytes"
	"os"
	"os/exec"
	"path/filepath"
	"strconv"
	"syscall"
	"testing"
	"time"

	"github.com/polaris-vlt/polaris/childproc"
	"github.com/polaris-vlt/polaris/drivers/cardreader"
	"github.com/polaris-vlt/polaris/drivers/cardreader/internal/pcscdtest"
	"github.com/polaris-vlt/polaris/drivers/cardreader/pcsc"
	"github.com/polaris-vlt/polaris/internal/hosttools"
)

// viccATR is what Debian's vicc --type iso7816 answers (platform.md §8).
var viccATR = []byte{0x3B, 0x95, 0x13, 0x81, 0x01, 0x80, 0x73, 0xFF, 0x01, 0x00, 0x0B}

// startVICC runs Debian's card emulator (vsmartcard-vpicc) against vpcd's
// slot 0, with the two packaging fixes of platform.md §8: its library's
// directory on PYTHONPATH, and a "Crypto" that is pycryptodome's
// Cryptodome. Debian's Python runs it, whatever python3 the PATH has.
func startVICC(t *testing.T, d *pcscdtest.Daemon) *exec.Cmd {
	vicc := hosttools.Need(t, "vicc")
	const lib, crypto = "/usr/lib/python3/site-packages/virtualsmartcard", "/usr/lib/python3/dist-packages/Cryptodome"
	for _, p := range []string{lib, crypto} {
		if _, err := os.Stat(p); err != nil {
			t.Fatalf("vicc's Python library (python3-virtualsmartcard, python3-pycryptodome in .ci/apt-packages): %v", err)
		}
	}
	shim := t.TempDir()
	if err := os.Symlink(crypto, filepath.Join(shim, "Crypto")); err != nil {
		t.Fatal(err)
	}
	cmd := exec.Command("/usr/bin/python3", vicc, "--type", "iso7816", "--hostname", "127.0.0.1", "--port", strconv.Itoa(d.Port))
	cmd.Env = append(os.Environ(), "PYTHONPATH="+lib+":"+shim)
	var out bytes.Buffer
	cmd.Stdout, cmd.Stderr = &out, &out
	// Ends with the test binary should it die first (childproc).
	if err := childproc.Start(cmd, syscall.SIGKILL); err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() {
		cmd.Process.Kill()
		cmd.Wait()
		if t.Failed() {
			t.Logf("vicc:\n%s", out.String())
		}
	})
	return cmd
}

// A card nobody here wrote: the reader sees it come (its ATR), asks it
// for the Polaris applet and gets ISO 7816's "not found", so it is an
// unknown card, not a player; a raw APDU through the same client gets the
// card's own answer; killing vicc is the card taken out.
func TestDebianVICCCard(t *testing.T) {
	t.Parallel()
	d := pcscdtest.Start(t)
	r, err := pcsc.Open(pcsc.Config{Socket: d.Socket, Reader: pcscdtest.Slot0})
	if err != nil {
		t.Fatal(err)
	}
	defer r.Close()
	g := &rig{t: t, d: d, r: r}
	cmd := startVICC(t, d)

	e := g.want("unknown").(cardreader.UnknownCard)
	if !bytes.Equal(e.ATR, viccATR) {
		t.Errorf("ATR % X, want % X", e.ATR, viccATR)
	}
	if !bytes.Contains([]byte(e.Reason), []byte("6A82")) {
		t.Errorf("reason %q: want the card's 6A82 to SELECT", e.Reason)
	}

	c, err := pcsc.Dial(d.Socket, 5*time.Second)
	if err != nil {
		t.Fatal(err)
	}
	defer c.Close()
	ctx, err := c.EstablishContext()
	if err != nil {
		t.Fatal(err)
	}
	card, err := c.Connect(ctx, pcscdtest.Slot0, pcsc.ShareShared, pcsc.ProtocolT0|pcsc.ProtocolT1)
	if err != nil {
		t.Fatal(err)
	}
	// SELECT the master file 3F00 by identifier, no FCI (vicc 0.8 fails
	// building an FCI: a Python TypeError).
	resp, err := c.Transmit(card, []byte{0x00, 0xA4, 0x00, 0x0C, 0x02, 0x3F, 0x00})
	if err != nil {
		t.Fatal(err)
	}
	if _, sw, ok := cardreader.SW(resp); !ok || sw != 0x9000 {
		t.Fatalf("SELECT MF answered % X", resp)
	}
	// GET CHALLENGE: eight bytes of the card's randomness come back.
	resp, err = c.Transmit(card, []byte{0x00, 0x84, 0x00, 0x00, 0x08})
	if err != nil {
		t.Fatal(err)
	}
	if data, sw, ok := cardreader.SW(resp); !ok || sw != 0x9000 || len(data) != 8 {
		t.Fatalf("GET CHALLENGE answered % X", resp)
	}
	c.Disconnect(card, pcsc.LeaveCard)

	cmd.Process.Kill()
	g.want("removed ")
}
