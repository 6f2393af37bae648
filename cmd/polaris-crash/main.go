// Command polaris-crash is the cabinet crash harness: it runs the headless
// cabinet (polaris-devkit headless -chaos) with notes, games, vouchers and tickets
// going in and out at random, SIGKILLs it at random instants, and after
// every kill reconciles the ledger with the central system's records and
// with the documents the emulators stacked and printed, which their
// document logs keep across kills as paper outlives a power cut
// (firmware/devkit.Reconciler). After the last kill it lets the cabinet
// recover once more and checks that every round was settled exactly once
// and every document stacked or printed was credited or debited once.
// It ends with one line: "cabinet crash test: <N> kills, <D> discrepancies".
package main

import (
	"bufio"
	"flag"
	"fmt"
	"math/rand/v2"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"syscall"
	"time"

	"github.com/polaris-vlt/polaris/firmware/devkit"
)

func main() {
	n := flag.Int("n", 20, "kills")
	bin := flag.String("bin", "bin/polaris-devkit", "the polaris-devkit binary")
	data := flag.String("data", "", "data directory (default: a new temporary one)")
	market := flag.String("market", "demo", "market profile: a built-in id or a .toml file (testdata/handpays.toml has limits chaos play reaches)")
	seed := flag.Uint64("seed", uint64(time.Now().UnixNano()), "seed of the kill instants and the play")
	maxLife := flag.Duration("max-life", 5*time.Second, "longest life of a child before its kill")
	paper := flag.Bool("paper", true, "keep the emulators' document logs and reconcile the paper too (false: the ledger against the central system only)")
	longEvery := flag.Int("long-every", 8, "every n-th life lasts 6 s more, so that the recoveries that wait (a pending escrow's 5 s grace) finish; 0: never")
	flag.Parse()
	if *data == "" {
		d, err := os.MkdirTemp("", "polaris-crash-")
		if err != nil {
			fail(err)
		}
		defer os.RemoveAll(d)
		*data = d
	}
	if *paper {
		if err := os.MkdirAll(devkit.DocumentDir(*data), 0o700); err != nil {
			fail(err)
		}
	}
	rec := devkit.NewReconciler(*data, "dev-1", *market)
	fmt.Fprintf(os.Stderr, "polaris-crash: seed %d, data %s\n", *seed, *data)
	rng := rand.New(rand.NewPCG(*seed, 1))
	discrepancies := 0
	report := func(when string, bad []string) {
		for _, b := range bad {
			fmt.Fprintf(os.Stderr, "%s: %s\n", when, b)
		}
		discrepancies += len(bad)
	}
	for k := 1; k <= *n; k++ {
		chaosSeed := rng.Uint64() | 1
		cmd := exec.Command(*bin, "headless", "-data", *data, "-market", *market, "-fast", "-chaos", fmt.Sprint(chaosSeed))
		cmd.Stderr = os.Stderr
		out, err := cmd.StdoutPipe()
		if err != nil {
			fail(err)
		}
		if err := cmd.Start(); err != nil {
			fail(err)
		}
		ready := make(chan bool, 1)
		go func() {
			sc := bufio.NewScanner(out)
			for sc.Scan() {
				if strings.TrimSpace(sc.Text()) == "ready" {
					ready <- true
				}
			}
			ready <- false
		}()
		select {
		case ok := <-ready:
			if !ok {
				cmd.Wait()
				fail(fmt.Errorf("kill %d: the cabinet did not start", k))
			}
		case <-time.After(60 * time.Second):
			cmd.Process.Kill()
			fail(fmt.Errorf("kill %d: the cabinet took over a minute to start", k))
		}
		life := time.Duration(rng.Int64N(int64(*maxLife)))
		if *longEvery > 0 && k%*longEvery == 0 {
			life += 6 * time.Second
		}
		time.Sleep(life)
		cmd.Process.Signal(syscall.SIGKILL)
		cmd.Wait()
		bad, err := rec.Check(false)
		if err != nil {
			fail(fmt.Errorf("kill %d: %w", k, err))
		}
		report(fmt.Sprintf("after kill %d (chaos seed %d, killed %v after ready)", k, chaosSeed, life.Round(time.Millisecond)), bad)
	}
	// A last, clean life: recover, let the attendant and the technician
	// clear what the chaos left, and let the outbox drain.
	settle := filepath.Join(*data, "settle.scn")
	os.WriteFile(settle, []byte("sleep 2s\nkey technician on\nkey technician off\nkey attendant on\nkey attendant off\nkey attendant on\nkey attendant off\npress collect\nsleep 3s\n"), 0o600)
	cmd := exec.Command(*bin, "headless", "-data", *data, "-market", *market, "-fast", "-script", settle)
	cmd.Stderr = os.Stderr
	if err := cmd.Run(); err != nil {
		fmt.Fprintln(os.Stderr, "settling run:", err)
		discrepancies++
	}
	bad, err := rec.Check(true)
	if err != nil {
		fail(err)
	}
	report("after recovery", bad)
	fmt.Printf("cabinet crash test: %d kills, %d discrepancies\n", *n, discrepancies)
	if discrepancies > 0 {
		os.Exit(1)
	}
}

func fail(err error) {
	fmt.Fprintln(os.Stderr, "polaris-crash:", err)
	os.Exit(2)
}
