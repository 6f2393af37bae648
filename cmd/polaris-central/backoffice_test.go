package main

import (
	"crypto/tls"
	"fmt"
	"io"
	"net"
	"net/http"
	"net/http/cookiejar"
	"net/url"
	"os"
	"os/exec"
	"path/filepath"
	"regexp"
	"strings"
	"syscall"
	"testing"
	"time"

	"github.com/polaris-vlt/polaris/central/pki"
	"github.com/polaris-vlt/polaris/childproc"
	"github.com/polaris-vlt/polaris/internal/poll"
)

// The real binary, built here, serves the back office from a config file:
// the first administrator is created from the flag and the environment, a
// login over HTTPS (the server certificate checked against the PKI's CA)
// reaches the dashboard and the players page, and SIGTERM stops it cleanly.
func TestServeBackofficeEndToEnd(t *testing.T) {
	if testing.Short() {
		t.Skip("builds and starts the server binary")
	}
	bin := filepath.Join(t.TempDir(), "polaris-central")
	// go test puts its own toolchain first on the PATH.
	build := exec.Command("go", "build", "-o", bin, ".")
	build.Stderr = os.Stderr
	if err := build.Run(); err != nil {
		t.Fatalf("go build: %v", err)
	}
	free := func() string {
		l, err := net.Listen("tcp", "127.0.0.1:0")
		if err != nil {
			t.Fatal(err)
		}
		defer l.Close()
		return l.Addr().String()
	}
	grpcAddr, boAddr := free(), free()
	data := t.TempDir()
	serverPKI(t, data)
	conf := filepath.Join(t.TempDir(), "central.toml")
	if err := os.WriteFile(conf, []byte(fmt.Sprintf("listen = %q\ndata_dir = %q\nbackoffice_addr = %q\n", grpcAddr, data, boAddr)), 0o600); err != nil {
		t.Fatal(err)
	}
	const pw = "a long enough password"
	cmd := exec.Command(bin, "serve", "-config", conf, "-backoffice-admin", "root")
	cmd.Env = append(os.Environ(), "POLARIS_BACKOFFICE_PASSWORD="+pw)
	cmd.Stderr = os.Stderr
	// Killed with the test binary should it die first (childproc).
	if err := childproc.Start(cmd, syscall.SIGKILL); err != nil {
		t.Fatal(err)
	}
	done := make(chan error, 1)
	go func() { done <- cmd.Wait() }()
	defer func() {
		if cmd.ProcessState == nil {
			cmd.Process.Kill()
			<-done
		}
	}()

	pool, err := pki.LoadPool(filepath.Join(data, "pki", pki.CACert))
	if err != nil {
		t.Fatal(err)
	}
	jar, _ := cookiejar.New(nil)
	c := &http.Client{Jar: jar, Timeout: poll.Scaled(10 * time.Second),
		Transport:     &http.Transport{TLSClientConfig: &tls.Config{RootCAs: pool, ServerName: "localhost"}},
		CheckRedirect: func(*http.Request, []*http.Request) error { return http.ErrUseLastResponse }}
	base := "https://" + boAddr
	get := func(path string) (int, string) {
		resp, err := c.Get(base + path)
		if err != nil {
			return 0, err.Error()
		}
		defer resp.Body.Close()
		b, _ := io.ReadAll(resp.Body)
		return resp.StatusCode, string(b)
	}
	var st int
	var body string
	for deadline := time.Now().Add(poll.Scaled(30 * time.Second)); ; {
		if st, body = get("/login"); st == http.StatusOK || time.Now().After(deadline) {
			break
		}
		time.Sleep(100 * time.Millisecond)
	}
	if st != http.StatusOK {
		t.Fatalf("login page: %d %s", st, body)
	}
	csrf := regexp.MustCompile(`name="csrf" value="([0-9a-f]+)"`)
	m := csrf.FindStringSubmatch(body)
	if m == nil {
		t.Fatalf("no CSRF token on the login page")
	}
	resp, err := c.PostForm(base+"/login", url.Values{"csrf": {m[1]}, "user": {"root"}, "password": {pw}})
	if err != nil {
		t.Fatal(err)
	}
	resp.Body.Close()
	if resp.StatusCode != http.StatusSeeOther {
		t.Fatalf("login: %d", resp.StatusCode)
	}
	if st, body = get("/"); st != http.StatusOK || !strings.Contains(body, `<b id="me">root</b>`) {
		t.Fatalf("dashboard after login: %d\n%.500s", st, body)
	}
	// No [players] in the config: the page says so.
	if st, body = get("/players"); st != http.StatusOK || !strings.Contains(body, "without player accounts") {
		t.Fatalf("players page: %d\n%.500s", st, body)
	}
	// A wrong password is refused by the same binary.
	resp, err = c.PostForm(base+"/login", url.Values{"csrf": {m[1]}, "user": {"root"}, "password": {"wrong password!"}})
	if err != nil {
		t.Fatal(err)
	}
	resp.Body.Close()
	if resp.StatusCode == http.StatusSeeOther {
		t.Fatal("a wrong password logged in")
	}
	cmd.Process.Signal(syscall.SIGTERM)
	select {
	case err := <-done:
		if err != nil {
			t.Fatalf("exit after SIGTERM: %v", err)
		}
	case <-poll.After(15 * time.Second):
		t.Fatalf("no exit %v after SIGTERM", poll.Scaled(15*time.Second))
	}
	if _, err := c.Get(base + "/login"); err == nil {
		t.Fatal("the console still answers after the server stopped")
	}
}
