package pcsc

import (
	"encoding/binary"
	"errors"
	"io"
	"net"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"github.com/polaris-vlt/polaris/internal/poll"
)

// A fake pcscd that answers from a script: the client's handling of
// replies real pcscd never sends (short, inconsistent, silent).

type fakeServer struct {
	path string
	ln   net.Listener
}

func serve(t *testing.T, handle func(c net.Conn)) *fakeServer {
	t.Helper()
	path := filepath.Join(t.TempDir(), "pcscd.comm")
	ln, err := net.Listen("unix", path)
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { ln.Close() })
	go func() {
		for {
			c, err := ln.Accept()
			if err != nil {
				return
			}
			go func() { defer c.Close(); handle(c) }()
		}
	}()
	return &fakeServer{path: path, ln: ln}
}

// request reads one request (header and body of the header's size).
func request(c net.Conn) (cmd uint32, body []byte, err error) {
	var h [8]byte
	if _, err := io.ReadFull(c, h[:]); err != nil {
		return 0, nil, err
	}
	body = make([]byte, binary.NativeEndian.Uint32(h[0:]))
	_, err = io.ReadFull(c, body)
	return binary.NativeEndian.Uint32(h[4:]), body, err
}

func versionReply(major, minor, rv uint32) []byte {
	b := make([]byte, 12)
	ne.PutUint32(b[0:], major)
	ne.PutUint32(b[4:], minor)
	ne.PutUint32(b[8:], rv)
	return b
}

// answerVersion accepts any version and then runs rest.
func answerVersion(rest func(c net.Conn)) func(c net.Conn) {
	return func(c net.Conn) {
		if cmd, _, err := request(c); err != nil || cmd != cmdVersion {
			return
		}
		c.Write(versionReply(protoMajor, protoMinor, 0))
		rest(c)
	}
}

func TestVersionOfAnotherMajorIsRefused(t *testing.T) {
	s := serve(t, func(c net.Conn) {
		for {
			if _, _, err := request(c); err != nil {
				return
			}
			c.Write(versionReply(3, 0, uint32(ErrServiceStopped)))
		}
	})
	_, err := Dial(s.path, time.Second)
	if !errors.Is(err, ErrServiceStopped) || !strings.Contains(err.Error(), "3.0") {
		t.Fatalf("Dial: %v", err)
	}
}

func TestVersionOfAnotherMinorIsRetried(t *testing.T) {
	s := serve(t, func(c net.Conn) {
		for {
			_, body, err := request(c)
			if err != nil {
				return
			}
			if ne.Uint32(body[4:]) == 3 {
				c.Write(versionReply(4, 3, 0))
			} else {
				c.Write(versionReply(4, 3, uint32(ErrServiceStopped)))
			}
		}
	})
	c, err := Dial(s.path, time.Second)
	if err != nil {
		t.Fatalf("Dial: %v", err)
	}
	c.Close()
}

func TestShortReplyIsALostConnection(t *testing.T) {
	s := serve(t, answerVersion(func(c net.Conn) {
		request(c)
		c.Write([]byte{1, 2, 3, 4}) // a few bytes of a reader table, then gone
	}))
	c, err := Dial(s.path, time.Second)
	if err != nil {
		t.Fatal(err)
	}
	defer c.Close()
	if _, err := c.ReaderStates(); !errors.Is(err, ErrLost) {
		t.Fatalf("ReaderStates: %v", err)
	}
	if _, err := c.ReaderStates(); !errors.Is(err, ErrLost) {
		t.Fatalf("a second call on the dead connection: %v", err)
	}
}

func TestSilentServerTimesOut(t *testing.T) {
	s := serve(t, answerVersion(func(c net.Conn) {
		request(c)
		io.Copy(io.Discard, c) // silent until the client hangs up
	}))
	c, err := Dial(s.path, 200*time.Millisecond)
	if err != nil {
		t.Fatal(err)
	}
	defer c.Close()
	errc := make(chan error, 1)
	go func() { _, err := c.EstablishContext(); errc <- err }()
	select {
	case err := <-errc:
		if !errors.Is(err, ErrLost) {
			t.Fatalf("EstablishContext: %v", err)
		}
	case <-poll.After(5 * time.Second):
		t.Fatal("EstablishContext still waits on a silent server, past its 200 ms timeout")
	}
}

func TestImpossibleATRLengthIsRefused(t *testing.T) {
	table := make([]byte, maxReaders*readerStateLen)
	copy(table, "Broken Reader 00 00")
	ne.PutUint32(table[176:], 99)
	s := serve(t, answerVersion(func(c net.Conn) {
		request(c)
		c.Write(table)
		request(c)
	}))
	c, err := Dial(s.path, time.Second)
	if err != nil {
		t.Fatal(err)
	}
	defer c.Close()
	if _, err := c.ReaderStates(); !errors.Is(err, ErrProtocol) || !strings.Contains(err.Error(), "99") {
		t.Fatalf("ReaderStates: %v", err)
	}
}

func TestImpossibleResponseLengthIsRefused(t *testing.T) {
	s := serve(t, answerVersion(func(c net.Conn) {
		_, body, err := request(c)
		if err != nil {
			return
		}
		io.ReadFull(c, make([]byte, ne.Uint32(body[12:]))) // the APDU follows the struct
		ne.PutUint32(body[24:], maxRecv+1)
		ne.PutUint32(body[28:], 0)
		c.Write(body)
		io.Copy(io.Discard, c)
	}))
	c, err := Dial(s.path, time.Second)
	if err != nil {
		t.Fatal(err)
	}
	defer c.Close()
	if _, err := c.Transmit(Card{Handle: 1, Protocol: ProtocolT1}, []byte{0, 0xA4, 4, 0}); !errors.Is(err, ErrLost) || !strings.Contains(err.Error(), "65547") {
		t.Fatalf("Transmit: %v", err)
	}
}

func TestErrorsNameThemselves(t *testing.T) {
	if got := ErrRemovedCard.Error(); got != "pcsc: card removed (0x80100069)" {
		t.Error(got)
	}
	if got := Error(0x80100099).Error(); got != "pcsc: error 0x80100099" {
		t.Error(got)
	}
	if !ErrRemovedCard.CardGone() || ErrTimeout.CardGone() {
		t.Error("CardGone")
	}
}
