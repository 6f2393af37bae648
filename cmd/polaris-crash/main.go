// Command polaris-crash is the cabinet crash harness: it runs the headless
// cabinet (polaris-devkit headless -chaos) with notes, games, vouchers and tickets
// going in and out at random, SIGKILLs it at random instants, and after
// every kill reconciles the ledger with the central system's records and
// with the documents the emulators stacked and printed, which their
// document logs keep across kills as paper outlives a power cut
// (firmware/devkit.Reconciler). After the last kill it lets the cabinet
// recover once more and checks that every round was settled exactly once
// and every document stacked or printed was credited or debited once.
// A MIRROR_DIFFERS alarm the central system raised at a Hello is a
// discrepancy too (mirrorCheck). It ends with one line: "cabinet crash test: <N> kills, <D> discrepancies".
//
// With -pg the cabinet plays against two polaris-central processes on a
// throwaway PostgreSQL cluster instead of its embedded central system
// (-central a,b): now and then one node is SIGKILLed during a life and
// started again after it, so the cabinet fails over mid-round; the ledger
// is reconciled with the shared store. With -cards it plays the cz market
// with player cards: a private pcscd with vsmartcard-vpcd's reader and
// the card emulator in it (the card stays in through the cabinet's kills,
// as it would through a power cut), two registered players (one with a
// daily bet limit chaos play reaches) at a polaris-central node (one, on
// SQLite, without -pg) whose continuous-play rule is short enough for
// breaks to come within a run. Kills are aimed at the login (a card
// inserted just before), at the break and, as rounds take two seconds in
// cz, land mid-round; after each one the players' records at the central
// system are reconciled with the rounds the ledger played under each card
// (playerCheck). The summary line then counts the kinds of kills.
package main

import (
	"bufio"
	"context"
	"flag"
	"fmt"
	"math/rand/v2"
	"os"
	"os/exec"
	"os/signal"
	"path/filepath"
	"sort"
	"strings"
	"sync"
	"syscall"
	"time"

	"github.com/polaris-vlt/polaris/central/reports"
	"github.com/polaris-vlt/polaris/childproc"
	"github.com/polaris-vlt/polaris/firmware/devkit"
	"github.com/polaris-vlt/polaris/firmware/ledger"
)

func main() {
	n := flag.Int("n", 20, "kills")
	bin := flag.String("bin", "bin/polaris-devkit", "the polaris-devkit binary")
	data := flag.String("data", "", "data directory (default: a new temporary one)")
	market := flag.String("market", "demo", "market profile: a built-in id or a .toml file (testdata/handpays.toml has limits chaos play reaches); -cards plays cz")
	seed := flag.Uint64("seed", uint64(time.Now().UnixNano()), "seed of the kill instants and the play")
	maxLife := flag.Duration("max-life", 5*time.Second, "longest life of a child before its kill")
	paper := flag.Bool("paper", true, "keep the emulators' document logs and reconcile the paper too (false: the ledger against the central system only)")
	longEvery := flag.Int("long-every", 8, "every n-th life lasts 6 s more, so that the recoveries that wait (a pending escrow's 5 s grace) finish; 0: never")
	pg := flag.Bool("pg", false, "play against two polaris-central nodes on a throwaway PostgreSQL cluster (initdb, pg_ctl) instead of the embedded central system")
	cards := flag.Bool("cards", false, "play the cz market with player cards through pcscd, vpcd and the card emulator, the players at a polaris-central node")
	centralBin := flag.String("central-bin", "bin/polaris-central", "the polaris-central binary (-pg, -cards)")
	nodeKills := flag.Int("node-kill-every", 3, "with several nodes: one life in n on average SIGKILLs a central node in its midst (started again after the cabinet's kill); 0: never")
	maxPlay := flag.Duration("max-play", 45*time.Second, "-cards: continuous play before a break")
	brk := flag.Duration("break", 10*time.Second, "-cards: the break's length")
	betsDay := flag.Int64("bets-day", 150, "-cards: the second player's daily bet limit (CZK)")
	fast := flag.Bool("fast", true, "the cabinet presents rounds instantly (false: with their spin and win times, so that kills land mid-round)")
	verbose := flag.Bool("v", false, "a line for every kill: what it aimed at and what it hit")
	boardSrc := flag.String("board-source", "board/profiles/devkit.toml", "-cards: the devkit board profile the cabinet's is made from (its card reader on the private pcscd)")
	flag.Parse()
	onSignal()
	if *data == "" {
		d, err := os.MkdirTemp("", "polaris-crash-")
		if err != nil {
			fail(err)
		}
		atExit(func() { os.RemoveAll(d) })
		*data = d
	}
	if *paper {
		if err := os.MkdirAll(devkit.DocumentDir(*data), 0o700); err != nil {
			fail(err)
		}
	}
	if *cards {
		*market = "cz"
	}
	fmt.Fprintf(os.Stderr, "polaris-crash: seed %d, data %s\n", *seed, *data)
	rng := rand.New(rand.NewPCG(*seed, 1))
	const cabinetID = "dev-1"
	rec := devkit.NewReconciler(*data, cabinetID, *market)
	args := []string{"-data", *data, "-market", *market, "-id", cabinetID}

	// The central system and the card reader, when not the embedded one.
	var sys *system
	store := "" // the central system's store when not the embedded one
	var cp *cardPlay
	var pcheck *playerCheck
	if *pg || *cards {
		dir := filepath.Join(*data, "hall")
		if err := os.MkdirAll(dir, 0o700); err != nil {
			fail(err)
		}
		nodes, cfg := 1, ""
		var master []byte
		var regKey []byte
		if *pg {
			nodes = 2
		}
		if *cards {
			c, m, k, err := cardConfig(dir, *maxPlay, *brk)
			if err != nil {
				fail(err)
			}
			cfg, master, regKey = c, m, k
		}
		var err error
		if sys, err = startSystem(*centralBin, dir, cabinetID, nodes, *pg, cfg); err != nil {
			fail(err)
		}
		atExit(sys.stop)
		store = sys.store()
		rec.Store = store
		args = append(args, "-central", sys.addrs(), "-pki", sys.offline)
		fmt.Fprintf(os.Stderr, "polaris-crash: %d central node(s) at %s, store %s\n", nodes, sys.addrs(), sys.store())
		if *cards {
			if cp, err = startCards(dir, sys, master, regKey, *betsDay); err != nil {
				fail(err)
			}
			atExit(cp.close)
			if err := cp.insert(0); err != nil {
				fail(err)
			}
			src, err := os.ReadFile(*boardSrc)
			if err != nil {
				fail(fmt.Errorf("the devkit board profile: %w (run from the repository's root, or -board-source)", err))
			}
			// The devkit profile's [card_reader] is its last table: the
			// socket goes into it.
			board := filepath.Join(dir, "board.toml")
			if err := os.WriteFile(board, fmt.Appendf(src, "socket = %q\n", cp.rig.Socket), 0o600); err != nil {
				fail(err)
			}
			args = append(args, "-board", board)
			pcheck = newPlayerCheck(*data, cabinetID, sys.store(), cp)
		}
	}
	discrepancies := 0
	report := func(when string, bad []string) {
		for _, b := range bad {
			fmt.Fprintf(os.Stderr, "%s: %s\n", when, b)
		}
		discrepancies += len(bad)
	}
	mirror := newMirrorCheck(*data, store, cabinetID)
	checkMirror := func(when string) {
		bad, err := mirror.check()
		if err != nil {
			fail(fmt.Errorf("%s: mirror alarms: %w", when, err))
		}
		report(when, bad)
	}
	kinds := map[string]int{}
	nodeKilled, linkDowns := 0, 0
	for k := 1; k <= *n; k++ {
		chaosSeed := rng.Uint64() | 1
		cmd := exec.Command(*bin, append([]string{"headless"}, append(args, fmt.Sprintf("-fast=%v", *fast), "-chaos", fmt.Sprint(chaosSeed))...)...)
		cmd.Stderr = os.Stderr
		out, err := cmd.StdoutPipe()
		if err != nil {
			fail(err)
		}
		// Killed as the harness's kills do should the harness die.
		if err := childproc.Start(cmd, syscall.SIGKILL); err != nil {
			fail(err)
		}
		setChild(cmd)
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
		plan := "random"
		if cp != nil {
			plan = cardLife(rng)
		} else if rng.IntN(4) == 0 {
			plan = "cash-out"
		}
		// A central node's kill somewhere in the life: the cabinet's
		// link fails over to the other node. A cabinet starts on the
		// first of its endpoints and stays on the one that answers, so
		// the first node is the one it uses: that one mostly.
		var downNode *node
		var nodeAt time.Duration
		if sys != nil && len(sys.nodes) > 1 && *nodeKills > 0 && rng.IntN(*nodeKills) == 0 && life > 0 {
			downNode = sys.nodes[0]
			if rng.IntN(4) == 0 {
				downNode = sys.nodes[1+rng.IntN(len(sys.nodes)-1)]
			}
			nodeAt = time.Duration(rng.Int64N(int64(life)))
		}
		start := time.Now()
		switch plan {
		case "break":
			// Into the break (the first player's: the second may be at
			// the daily limit), then a kill within it.
			if cp.in != 0 {
				if err := cp.insert(0); err != nil {
					fail(err)
				}
			}
			if cp.waitBreak(*maxPlay + *brk + 10*time.Second) {
				life = time.Since(start) + time.Duration(rng.Int64N(int64(*brk)))
			} else {
				life = time.Since(start)
			}
		case "login":
			// Play a little, then a card in (either player's, at random)
			// and the kill while it logs in.
			time.Sleep(time.Duration(rng.Int64N(int64(time.Second))))
			next := cp.in
			if next < 0 || rng.IntN(2) == 0 {
				next = rng.IntN(len(cp.cards))
			}
			if err := cp.insert(next); err != nil {
				fail(err)
			}
			// pcscd polls vpcd every 400 ms; the card's challenge and
			// the central system's answer take a few hundred more.
			life = time.Since(start) + time.Duration(150+rng.Int64N(500))*time.Millisecond
		case "round":
			// A kill just after the central system drew a round: its
			// outcome on the way to the ledger, or the round on screen.
			if waitDrawn(*data, sys.store(), cabinetID, 2**maxLife) {
				life = time.Since(start) + time.Duration(rng.Int64N(1500))*time.Millisecond
			} else {
				life = time.Since(start)
			}
		case "cash-out":
			// A kill as soon as the central system has issued a voucher:
			// its number on the way to the ledger, or being printed.
			waitIssued(*data, store, cabinetID, 2**maxLife)
			life = time.Since(start)
		case "card-out":
			if life > 0 {
				time.Sleep(time.Duration(rng.Int64N(int64(life))))
			}
			cp.remove()
		}
		if downNode != nil && cp == nil && rng.IntN(2) == 0 {
			// Half of the node kills come just after a round was drawn:
			// its commit, and the next round, go to the other node.
			if waitDrawn(*data, sys.store(), cabinetID, life) {
				downNode.kill()
				nodeKilled++
				life = time.Since(start) + time.Duration(rng.Int64N(int64(*maxLife)))
			}
		}
		if downNode != nil && nodeAt > life {
			nodeAt = life / 2
		}
		if downNode != nil && downNode.up() {
			sleepUntil(start.Add(nodeAt))
			downNode.kill()
			nodeKilled++
		}
		sleepUntil(start.Add(life))
		inBreak := cp != nil && cp.inBreak()
		cmd.Process.Signal(syscall.SIGKILL)
		cmd.Wait()
		if downNode != nil {
			if err := sys.start(downNode); err != nil {
				fail(err)
			}
		}
		when := fmt.Sprintf("after kill %d (chaos seed %d, killed %v after ready)", k, chaosSeed, time.Since(start).Round(time.Millisecond))
		bad, err := rec.Check(false)
		if err != nil {
			fail(fmt.Errorf("kill %d: %w", k, err))
		}
		report(when, bad)
		checkMirror(when)
		if rec.CashOut != "" {
			kinds["killed in a cash-out "+rec.CashOut]++
		}
		if sys != nil && len(sys.nodes) > 1 {
			linkDowns += linkDownsInLastLife(*data)
		}
		if pcheck != nil {
			ks, bad, err := pcheck.check(false, inBreak)
			if err != nil {
				fail(fmt.Errorf("kill %d: players: %w", k, err))
			}
			for _, kind := range ks {
				kinds[kind]++
			}
			if *verbose {
				fmt.Fprintf(os.Stderr, "kill %d: aimed at %s, hit %v\n", k, plan, ks)
			}
			report(when, bad)
		}
		if cp != nil && cp.in < 0 {
			// The card taken out in that life goes back in before the next.
			if err := cp.insert(rng.IntN(len(cp.cards))); err != nil {
				fail(err)
			}
		}
	}
	// A last, clean life: recover, let the attendant and the technician
	// clear what the chaos left, and let the outbox drain.
	settle := filepath.Join(*data, "settle.scn")
	os.WriteFile(settle, []byte("sleep 2s\nkey technician on\nkey technician off\nkey attendant on\nkey attendant off\nkey attendant on\nkey attendant off\npress collect\nsleep 3s\n"), 0o600)
	cmd := exec.Command(*bin, append([]string{"headless"}, append(args, "-fast", "-script", settle)...)...)
	cmd.Stderr = os.Stderr
	serr := childproc.Start(cmd, syscall.SIGKILL)
	setChild(cmd)
	if serr == nil {
		serr = cmd.Wait()
	}
	if serr != nil {
		fmt.Fprintln(os.Stderr, "settling run:", serr)
		discrepancies++
	}
	bad, err := rec.Check(true)
	if err != nil {
		fail(err)
	}
	report("after recovery", bad)
	checkMirror("after recovery")
	if pcheck != nil {
		_, bad, err := pcheck.check(true, false)
		if err != nil {
			fail(fmt.Errorf("players: %w", err))
		}
		report("after recovery", bad)
	}
	summary := ""
	if len(kinds) > 0 || nodeKilled > 0 {
		var ks []string
		for kind, c := range kinds {
			ks = append(ks, fmt.Sprintf("%s %d", kind, c))
		}
		sort.Strings(ks)
		if nodeKilled > 0 {
			ks = append(ks, fmt.Sprintf("central nodes killed %d, the cabinet's link down %d times", nodeKilled, linkDowns))
		}
		if sys != nil {
			ks = append(ks, drawnSummary(*data, sys.store(), cabinetID))
		}
		if cp != nil {
			ks = append(ks, cp.summary())
		}
		summary = " (" + strings.Join(ks, ", ") + ")"
	}
	fmt.Printf("cabinet crash test: %d kills, %d discrepancies%s\n", *n, discrepancies, summary)
	if discrepancies > 0 {
		exit(1)
	}
	exit(0)
}

// drawnSummary says how many rounds the central system drew, so that a
// run that played nothing does not pass for one that lost nothing.
func drawnSummary(dataDir, store, cabinet string) string {
	db, err := devkit.OpenStore(dataDir, store)
	if err != nil {
		return "rounds drawn: " + err.Error()
	}
	defer db.Close()
	rs, err := reports.DrawnRounds(context.Background(), db, cabinet)
	if err != nil {
		return "rounds drawn: " + err.Error()
	}
	return fmt.Sprintf("rounds drawn %d", len(rs))
}

// linkDownsInLastLife counts the times the cabinet's link to the central
// system went down in its last life (the ledger's "link" events): each is
// a failover to another node or a wait for one.
func linkDownsInLastLife(dataDir string) int {
	led, err := ledger.Open(ledger.Options{DirA: filepath.Join(dataDir, "ledger-a"), DirB: filepath.Join(dataDir, "ledger-b")})
	if err != nil {
		return 0
	}
	defer led.Close()
	n := 0
	for _, e := range led.Events(ledger.EventsKeep) { // newest first
		if e.Kind == ledger.EventPowerUp {
			break
		}
		if e.Kind == "link" && strings.Contains(e.Text, "down") {
			n++
		}
	}
	return n
}

// waitDrawn waits up to d for the central system to draw a new round for
// the cabinet.
func waitDrawn(dataDir, store, cabinet string, d time.Duration) bool {
	db, err := devkit.OpenStore(dataDir, store)
	if err != nil {
		return false
	}
	defer db.Close()
	n := -1
	for deadline := time.Now().Add(d); time.Now().Before(deadline); time.Sleep(25 * time.Millisecond) {
		rs, err := reports.DrawnRounds(context.Background(), db, cabinet)
		if err != nil {
			continue
		}
		if n >= 0 && len(rs) > n {
			return true
		}
		n = len(rs)
	}
	return false
}

// waitIssued waits at most d for the central system to issue a new voucher
// to cabinet, polling its store closely: the kill that follows lands while
// the voucher's number is on its way to the cabinet's ledger.
func waitIssued(dataDir, store, cabinet string, d time.Duration) bool {
	db, err := devkit.OpenStore(dataDir, store)
	if err != nil {
		return false
	}
	defer db.Close()
	newest := func() (string, bool) {
		vs, err := reports.Vouchers(context.Background(), db, "", "", 1)
		if err != nil {
			return "", false
		}
		if len(vs) == 0 || vs[0].Cabinet != cabinet {
			return "", true
		}
		return vs[0].Number, true
	}
	was, known := newest()
	for deadline := time.Now().Add(d); time.Now().Before(deadline); time.Sleep(time.Millisecond) {
		n, ok := newest()
		if !ok {
			continue
		}
		if known && n != was {
			return true
		}
		was, known = n, true
	}
	return false
}

func sleepUntil(t time.Time) {
	if d := time.Until(t); d > 0 {
		time.Sleep(d)
	}
}

// cardLife chooses what a card-mode life aims its kill at: the login (a
// card inserted just before the kill), the break, a round (just after the
// central system drew one), or a random instant; now and then the card is
// taken out mid-life (the round completes, the session ends) and put back
// before the next life.
func cardLife(rng *rand.Rand) string {
	switch p := rng.IntN(100); {
	case p < 30:
		return "login"
	case p < 42:
		return "break"
	case p < 52:
		return "card-out"
	case p < 72:
		return "round"
	}
	return "random"
}

func fail(err error) {
	fmt.Fprintln(os.Stderr, "polaris-crash:", err)
	exit(2)
}

// What the harness started outside its cabinet (the central nodes, the
// PostgreSQL cluster, pcscd, the temporary directory) is stopped however
// it ends: after the run, on a failure, on SIGINT or SIGTERM.
var (
	exitMu   sync.Mutex
	cleanups []func()
	child    *exec.Cmd
)

func atExit(f func()) {
	exitMu.Lock()
	cleanups = append(cleanups, f)
	exitMu.Unlock()
}

// setChild is the cabinet now running, killed first on a signal.
func setChild(c *exec.Cmd) {
	exitMu.Lock()
	child = c
	exitMu.Unlock()
}

func exit(code int) {
	exitMu.Lock()
	if child != nil && child.Process != nil {
		child.Process.Signal(syscall.SIGKILL)
	}
	fs := cleanups
	cleanups = nil
	exitMu.Unlock()
	for i := len(fs) - 1; i >= 0; i-- {
		fs[i]()
	}
	os.Exit(code)
}

func onSignal() {
	ch := make(chan os.Signal, 1)
	signal.Notify(ch, syscall.SIGINT, syscall.SIGTERM)
	go func() {
		s := <-ch
		fmt.Fprintln(os.Stderr, "polaris-crash:", s, "- stopping")
		exit(3)
	}()
}
