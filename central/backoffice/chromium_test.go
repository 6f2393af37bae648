package backoffice

import (
	"bytes"
	"context"
	"encoding/csv"
	"fmt"
	"os"
	"path/filepath"
	"strconv"
	"strings"
	"testing"
	"time"

	"github.com/chromedp/cdproto/browser"
	"github.com/chromedp/cdproto/cdp"
	"github.com/chromedp/cdproto/emulation"
	"github.com/chromedp/cdproto/page"
	"github.com/chromedp/chromedp"

	"github.com/polaris-vlt/polaris/central/internal/testenv"
	"github.com/polaris-vlt/polaris/central/link"
	"github.com/polaris-vlt/polaris/central/proto/refusal"
	"github.com/polaris-vlt/polaris/central/reports"
	"github.com/polaris-vlt/polaris/internal/hosttools"
	"github.com/polaris-vlt/polaris/internal/poll"
)

// ScreenshotsEnv names a directory the browser test writes its PNGs to
// (the committed ones: POLARIS_BACKOFFICE_SCREENSHOTS=screenshots, run in
// this package's directory); unset, they go to a temporary directory.
const ScreenshotsEnv = "POLARIS_BACKOFFICE_SCREENSHOTS"

type browserT struct {
	t   *testing.T
	r   *rig
	ctx context.Context
	dir string // screenshots
}

func (b *browserT) do(steps ...chromedp.Action[chromedp.Void]) {
	b.t.Helper()
	ctx, cancel := context.WithTimeout(b.ctx, poll.Scaled(20*time.Second))
	defer cancel()
	if err := chromedp.Do(ctx, steps...); err != nil {
		b.t.Fatal(err)
	}
}

func (b *browserT) open(path string) {
	b.t.Helper()
	b.do(chromedp.Navigate(b.r.url + path))
}

// click clicks sel and waits for the page it loads (a form's answer).
func (b *browserT) click(sel string) {
	b.t.Helper()
	ctx, cancel := context.WithTimeout(b.ctx, poll.Scaled(20*time.Second))
	defer cancel()
	if _, err := chromedp.Run(ctx, chromedp.WaitEvent(page.LoadEventFired, nil, chromedp.Click(chromedp.CSS(sel)))); err != nil {
		b.t.Fatalf("click %s: %v", sel, err)
	}
}

func (b *browserT) text(sel string) string {
	b.t.Helper()
	ctx, cancel := context.WithTimeout(b.ctx, poll.Scaled(20*time.Second))
	defer cancel()
	s, err := chromedp.Run(ctx, chromedp.TextContent(chromedp.CSS(sel)))
	if err != nil {
		b.t.Fatalf("text of %s: %v", sel, err)
	}
	return strings.TrimSpace(s)
}

func (b *browserT) eval(expr string) string {
	b.t.Helper()
	ctx, cancel := context.WithTimeout(b.ctx, poll.Scaled(20*time.Second))
	defer cancel()
	s, err := chromedp.Run(ctx, chromedp.Evaluate[string]("String("+expr+")"))
	if err != nil {
		b.t.Fatalf("%s: %v", expr, err)
	}
	return s
}

func (b *browserT) typeInto(sel, v string) {
	b.t.Helper()
	b.do(chromedp.SendKeys(chromedp.CSS(sel), v))
}

func (b *browserT) shot(name string) {
	b.t.Helper()
	ctx, cancel := context.WithTimeout(b.ctx, poll.Scaled(20*time.Second))
	defer cancel()
	png, err := chromedp.Run(ctx, chromedp.FullScreenshot(100))
	if err != nil {
		b.t.Fatal(err)
	}
	if err := os.WriteFile(filepath.Join(b.dir, name+".png"), png, 0o644); err != nil {
		b.t.Fatal(err)
	}
}

func (b *browserT) theme(dark bool) {
	b.t.Helper()
	v := "light"
	if dark {
		v = "dark"
	}
	b.do(func(ctx context.Context, t *chromedp.Target) (chromedp.Void, error) {
		_, err := cdp.Call(ctx, t, emulation.SetEmulatedMedia, emulation.SetEmulatedMediaParams{
			Features: []*emulation.MediaFeature{{Name: "prefers-color-scheme", Value: v}}})
		return chromedp.Void{}, err
	})
}

func (b *browserT) login(name string) {
	b.t.Helper()
	b.open("/login")
	b.typeInto("#user", name)
	b.typeInto("#password", password)
	b.click("#login")
	if got := b.text("#me"); got != name {
		b.t.Fatalf("logged in as %q, want %s", got, name)
	}
}

func (b *browserT) waitText(sel, want string, within time.Duration) {
	b.t.Helper()
	deadline := time.Now().Add(poll.Scaled(within))
	got := ""
	for time.Now().Before(deadline) {
		if got = b.text(sel); got == want {
			return
		}
		time.Sleep(200 * time.Millisecond) // a reload every 200 ms, under the deadline above
		b.do(chromedp.Reload())
	}
	b.t.Fatalf("%s shows %q, want %q", sel, got, want)
}

// TestConsoleInChromium drives the console in real headless Chromium over
// TLS against a real central server with two cabinets playing over real
// gRPC: log in, see the cabinet that just played, disable it (its next
// round is refused), mark a jackpot paid and find it in the register and
// the audit log, void a voucher with two people, download a report whose
// totals equal the store's rounds; and a screenshot of every page, light
// and dark.
func TestConsoleInChromium(t *testing.T) {
	bin := hosttools.Need(t, "chromium", "chromium-browser", "google-chrome")
	r := newRig(t)
	// Play until the Praha cabinet won a jackpot (one in four rounds).
	for i := 0; ; i++ {
		if r.play("CAB-PRAHA", 1) > 0 && i >= 5 {
			break
		}
		if i > 200 {
			t.Fatal("no jackpot in 200 rounds")
		}
	}
	r.play("CAB-BRNO", 7)
	voucher, err := r.cabs["CAB-PRAHA"].IssueVoucher(context.Background(), 250, 1)
	if err != nil {
		t.Fatal(err)
	}

	dir := os.Getenv(ScreenshotsEnv)
	if dir == "" {
		dir = t.TempDir()
	} else if err := os.MkdirAll(dir, 0o755); err != nil {
		t.Fatal(err)
	}
	downloads := t.TempDir()
	opts := append(chromedp.DefaultExecAllocatorOptions[:], chromedp.ExecPath(bin), chromedp.NoSandbox, chromedp.DisableGPU,
		chromedp.WindowSize(1280, 900), chromedp.UserDataDir(t.TempDir()),
		// The console's certificate is signed by the test PKI's CA, which
		// this browser profile does not know.
		chromedp.Flag("ignore-certificate-errors", true), chromedp.Flag("lang", "en-US"))
	actx, cancelA := chromedp.NewExecAllocator(context.Background(), opts...)
	defer cancelA()
	ctx, cancel := chromedp.NewContext(actx)
	defer cancel()
	b := &browserT{t: t, r: r, ctx: ctx, dir: dir}
	// The first call starts the browser, which lives as long as its
	// context: no timeout on this one.
	if err := chromedp.Do(ctx, chromedp.Navigate("about:blank")); err != nil {
		t.Fatal(err)
	}

	b.theme(false)
	b.open("/login")
	b.shot("01_login_light")
	b.theme(true)
	b.do(chromedp.Reload())
	b.shot("01_login_dark")
	b.theme(false)

	// Log in; the dashboard counts both cabinets online.
	b.login("alice")
	b.open("/live")
	b.waitText("#n-online", "2", 10*time.Second)

	// The cabinets report events and meters: a tilt cleared and a handpay
	// at Praha, an open tilt at Brno (the dashboard counts it).
	at := r.e.Clock.Now()
	bg := context.Background()
	if err := r.cabs["CAB-PRAHA"].ReportEvents(bg, 1, []link.Event{
		{Seq: 1, At: at, Kind: "tilt", Text: "door open"},
		{Seq: 2, At: at.Add(time.Second), Kind: "tilt_cleared", Text: "door closed"},
		{Seq: 3, At: at.Add(2 * time.Second), Kind: "handpay_paid", Text: "large win paid by the attendant", Amount: 500},
	}); err != nil {
		t.Fatal(err)
	}
	if err := r.cabs["CAB-PRAHA"].ReportMeters(bg, 2, at, []link.Meter{{Name: "coin_in", Value: 80}, {Name: "coin_out", Value: 90}, {Name: "games_played", Value: 8}, {Name: "handpay_paid", Value: 500}}); err != nil {
		t.Fatal(err)
	}
	if err := r.cabs["CAB-BRNO"].ReportEvents(bg, 1, []link.Event{{Seq: 1, At: at, Kind: "tilt", Text: "printer: paper out"}}); err != nil {
		t.Fatal(err)
	}
	b.open("/live")
	if got := b.text("#n-tilted") + "/" + b.text("#n-online"); got != "1/1" {
		t.Fatalf("dashboard tilted/online %s, want 1/1", got)
	}
	// The dashboard's counts change without the dashboard reloading: its
	// frame reloads itself (LiveRefresh 1 s, the page every 12 s).
	b.open("/")
	b.eval(`document.body.dataset.mark = "kept"`)
	frame := func(id string) string {
		return b.eval(`document.querySelector("iframe.live").contentDocument.querySelector("#` + id + `")?.textContent ?? ""`)
	}
	if got := frame("n-disabled") + "/" + frame("n-tilted"); got != "0/1" {
		t.Fatalf("dashboard frame disabled/tilted %s, want 0/1", got)
	}
	if err := r.e.Server.Cabinets().Disable(bg, "CAB-BRNO", "frame test"); err != nil {
		t.Fatal(err)
	}
	for deadline := time.Now().Add(poll.Scaled(8 * time.Second)); frame("n-disabled") != "1"; time.Sleep(100 * time.Millisecond) {
		if time.Now().After(deadline) {
			t.Fatalf("the dashboard's frame still counts %s disabled", frame("n-disabled"))
		}
	}
	if got := b.eval(`document.body.dataset.mark ?? "reloaded"`); got != "kept" {
		t.Fatalf("the dashboard reloaded (%s) to show the counts", got)
	}
	if err := r.e.Server.Cabinets().Enable(bg, "CAB-BRNO"); err != nil {
		t.Fatal(err)
	}

	// The cabinet that just played, with its rounds.
	played := r.e.Count("rounds", "cabinet = 'CAB-PRAHA'")
	b.open("/cabinets")
	if got := b.text(`tr[data-cabinet="CAB-PRAHA"] .rounds`); got != strconv.Itoa(played) {
		t.Fatalf("cabinets page: CAB-PRAHA has %s rounds, the store %d", got, played)
	}

	// Disable it with a reason: the cabinet is told at once and its next
	// round is refused.
	b.open("/cabinet?id=CAB-PRAHA")
	if got := b.eval(`document.querySelectorAll('#rounds tr').length - 1`); got != strconv.Itoa(min(played, 20)) {
		t.Fatalf("cabinet page lists %s rounds", got)
	}
	// Every round's outcome is shown from its signed body, signature checked.
	if got := b.eval(`document.querySelectorAll('#rounds .sig.ok').length`); got != strconv.Itoa(min(played, 20)) {
		t.Fatalf("%s rounds with a checked outcome", got)
	}
	b.typeInto("#reason", "door alarm check")
	b.click("#disable")
	if got := b.text("#cab-state"); got != "disabled" {
		t.Fatalf("cabinet state after disable: %q", got)
	}
	if !strings.Contains(b.text("#cab-reason"), "door alarm check") {
		t.Fatal("the reason is not shown")
	}
	cab := r.cabs["CAB-PRAHA"]
	wait := poll.After(10 * time.Second)
	for got := false; !got; {
		select {
		case n := <-cab.Notices():
			got = n.Command != nil && n.Command.Kind == link.CmdDisable && strings.Contains(n.Command.Reason, "door alarm check")
		case <-wait:
			t.Fatal("the cabinet was not told it is disabled")
		}
	}
	nextRound["CAB-PRAHA"]++
	_, err = cab.RequestOutcome(context.Background(), nextRound["CAB-PRAHA"], testenv.GameID, testenv.TheGame.ModelID(), 10)
	if link.Refusal(err) != refusal.CabinetDisabled {
		t.Fatalf("the next round of the disabled cabinet: %v, want %s", err, refusal.CabinetDisabled)
	}
	nextRound["CAB-PRAHA"]--
	// Link statistics: the stream since its start on the server's clock,
	// the Hello's version and clock offset, the last request, the last
	// hour's rounds, the refusal just made.
	b.open("/cabinet?id=CAB-PRAHA")
	ls, err := r.e.Server.Links().Link(context.Background(), "CAB-PRAHA")
	if err != nil {
		t.Fatal(err)
	}
	if !ls.Connected || ls.Since.Before(rigStart) || ls.Since.After(r.e.Clock.Now()) {
		t.Fatalf("stream since %v, want on the server's clock from %v to %v", ls.Since, rigStart, r.e.Clock.Now())
	}
	if got := b.text("#l-connected"); !strings.Contains(got, "yes") || !strings.Contains(got, ts(ls.Since.UnixNano())) || !strings.Contains(got, "node-a") {
		t.Fatalf("link: connected %q, want since %s on node-a", got, ts(ls.Since.UnixNano()))
	}
	if got := b.text("#l-hello"); !strings.Contains(got, cabinetVersion) || !strings.Contains(got, "+1.500 s") {
		t.Fatalf("link: hello %q, want %s and +1.500 s", got, cabinetVersion)
	}
	if got := b.text("#l-lastreq"); !strings.Contains(got, ls.LastKind) || ls.LastKind == "" {
		t.Fatalf("link: last request %q, the server's %q", got, ls.LastKind)
	}
	hour := r.e.Count("rounds", "cabinet = 'CAB-PRAHA' AND drawn_at >= ?", r.e.Clock.Now().Add(-time.Hour).UnixNano())
	if got := b.text("#l-hour"); !strings.Contains(got, fmt.Sprintf("Rounds %d ·", hour)) {
		t.Fatalf("link: last hour %q, want %d rounds", got, hour)
	}
	if got := b.text("#l-refusals"); !strings.Contains(got, string(refusal.CabinetDisabled)+" × ") {
		t.Fatalf("link: refusals %q, want %s", got, refusal.CabinetDisabled)
	}
	b.shot("04_cabinet_light")

	// Mark a jackpot paid; it shows in the register and the audit log.
	wins, err := reports.JackpotWins(context.Background(), r.e.Server.DB())
	if err != nil || len(wins) == 0 {
		t.Fatalf("jackpot wins %v %v", wins, err)
	}
	var w reports.JackpotWin
	for _, x := range wins {
		if x.Cabinet == "CAB-PRAHA" {
			w = x
		}
	}
	row := fmt.Sprintf(`tr[data-win="CAB-PRAHA/%d"]`, w.Round)
	b.open("/jackpots")
	b.typeInto(row+` input[name="attendant"]`, "Karel Novák")
	b.typeInto(row+` input[name="form"]`, "JP-2026-0042")
	b.typeInto(row+` input[name="winner"]`, "Jan Dvořák")
	b.typeInto(row+` input[name="document"]`, "OP 123456789")
	b.click(row + ` button`)
	if got := b.text(row + ` .form`); got != "JP-2026-0042" {
		t.Fatalf("register shows form %q", got)
	}
	b.open("/audit")
	found := b.eval(`[...document.querySelectorAll('#audit tr')].some(tr => tr.querySelector('.action')?.textContent === 'jackpot.paid' && tr.querySelector('.object')?.textContent === 'CAB-PRAHA/` + strconv.FormatUint(w.Round, 10) + `' && tr.textContent.includes('JP-2026-0042'))`)
	if found != "true" {
		t.Fatal("the payout is not in the audit log")
	}

	// Void a voucher: alice asks, bob approves.
	vrow := fmt.Sprintf(`tr[data-voucher="%s"]`, voucher.Number)
	b.open("/vouchers?q=" + voucher.Number)
	b.typeInto(vrow+" .reason", "ticket printed twice")
	b.click(vrow + " .request")
	if b.eval(`document.querySelector('`+vrow+` .approve') !== null`) != "true" {
		t.Fatal("no approval button after the request")
	}
	b.click(vrow + " .approve") // alice herself: refused
	if !strings.Contains(b.text("#error"), "second person") {
		t.Fatal("the requester approved her own void")
	}
	b.click("#logout")
	b.login("bob")
	b.open("/vouchers?q=" + voucher.Number)
	b.click(vrow + " .approve")
	if got := b.text(vrow + " .vstate"); got != "void" {
		t.Fatalf("voucher state %q after approval", got)
	}
	if _, err := r.cabs["CAB-BRNO"].RedeemVoucher(context.Background(), voucher.Number); link.Refusal(err) != refusal.VoucherVoid {
		t.Fatalf("redeem the void voucher: %v", err)
	}

	// Download the daily report by cabinet: its totals are the store's.
	b.open("/reports?period=day&by=cabinet")
	b.do(func(ctx context.Context, t *chromedp.Target) (chromedp.Void, error) {
		_, err := cdp.Call(ctx, t, browser.SetDownloadBehavior, browser.SetDownloadBehaviorParams{
			Behavior: browser.SetDownloadBehaviorBehaviorAllow, DownloadPath: downloads})
		return chromedp.Void{}, err
	})
	b.do(chromedp.Click(chromedp.ID("csv")))
	// The browser may show the file under its name before it has written
	// all of it: wait for the whole report, its total row last.
	var recs [][]string
	poll.Until(t, 10*time.Second, "the CSV downloaded whole", func() bool {
		m, _ := filepath.Glob(filepath.Join(downloads, "*.csv"))
		if len(m) != 1 {
			return false
		}
		b, err := os.ReadFile(m[0])
		if err != nil {
			return false
		}
		recs, err = csv.NewReader(bytes.NewReader(b)).ReadAll()
		return err == nil && len(recs) > 0 && recs[len(recs)-1][0] == "total"
	}, func() string { return fmt.Sprintf("%d records", len(recs)) })
	last := recs[len(recs)-1]
	var n, stakes, wins2, jps int64
	if err := r.e.Server.DB().QueryRow(`SELECT count(*), sum(stake), sum(total), sum(jackpot_amount) FROM rounds`).Scan(&n, &stakes, &wins2, &jps); err != nil {
		t.Fatal(err)
	}
	want := []string{"total", "", "", fmt.Sprint(n), fmt.Sprint(stakes), fmt.Sprint(wins2), fmt.Sprint(stakes - wins2), fmt.Sprint(jps), "500", "250", "0"}
	if strings.Join(last, ",") != strings.Join(want, ",") {
		t.Fatalf("CSV total %v, the store's rounds %v", last, want)
	}
	var sumRounds int64
	for _, rec := range recs[1 : len(recs)-1] {
		v, _ := strconv.ParseInt(rec[3], 10, 64)
		sumRounds += v
	}
	if sumRounds != n || len(recs) != 4 { // header, two cabinets, total
		t.Fatalf("CSV rows %v", recs)
	}

	// Players: register one (the identity verified by the logged-in
	// user), issue a card, set a daily bet limit and see it on the detail
	// page, with what is used and left.
	b.open("/players")
	b.typeInto("#rname", "NOVÁK Jan")
	// A date input's typing depends on the browser's locale: set the value.
	b.eval(`document.querySelector("#rbirth").value = "1980-01-31"`)
	b.typeInto("#rdoc", "AB123456")
	b.do(chromedp.Click(chromedp.CSS("#rverified")))
	b.click("#rsubmit")
	account := b.text("#account")
	if !strings.HasPrefix(account, "P") {
		t.Fatalf("registering a player shows account %q", account)
	}
	if got, me := b.text("#verifiedby"), b.text("#me"); !strings.HasPrefix(got, me+" ") {
		t.Fatalf("identity verified by %q, want the logged-in %s", got, me)
	}
	b.typeInto("#cardid", "5000000000000001")
	b.click("#issuecard")
	if got := b.text(`#cards tr[data-card="5000000000000001"] .cstate`); got != "active" {
		t.Fatalf("issued card state %q", got)
	}
	b.do(chromedp.SetValue(chromedp.CSS("#kind"), "bets_day"))
	b.typeInto("#amount", "500")
	b.click("#setlimitbtn")
	if got := b.text(`#limits tr[data-kind="bets_day"] .amount`); got != "500" {
		t.Fatalf("daily bet limit shows %q, want 500", got)
	}
	if got := b.text(`#limits tr[data-kind="bets_day"] .left`); got != "500" {
		t.Fatalf("daily bet limit left %q, want 500", got)
	}
	// Loosening waits: the pending value and its date are shown.
	b.do(chromedp.SetValue(chromedp.CSS("#kind"), "bets_day"))
	b.typeInto("#amount", "800")
	b.click("#setlimitbtn")
	if got := b.text(`#limits tr[data-kind="bets_day"] .amount`); got != "500" {
		t.Fatalf("a milder limit took effect at once: %q", got)
	}
	if got := b.text(`#limits tr[data-kind="bets_day"] .pendingcell`); !strings.Contains(got, "800") || !strings.Contains(got, "from") {
		t.Fatalf("pending loosening shows %q", got)
	}
	if r.auditCount("players.register") != 1 || r.auditCount("players.card") != 1 || r.auditCount("players.limit") != 2 {
		t.Fatal("player actions missing from the audit log")
	}
	b.open("/players?q=5000000000000001")
	if got := b.text("#found tr[data-account] a"); got != account {
		t.Fatalf("search by card finds %q, want %s", got, account)
	}
	if strings.Contains(b.eval("document.body.innerHTML"), "AB123456") {
		t.Fatal("the document number is on a page")
	}
	// An auditor sees the player and no form to act with.
	b.click("#logout")
	b.login("eva")
	b.open("/player?id=" + account)
	if b.text(`#limits tr[data-kind="bets_day"] .amount`) != "500" || b.eval(`document.querySelectorAll("form[action='/player']").length`) != "0" {
		t.Fatal("the auditor's player page is wrong or has action forms")
	}
	b.click("#logout")
	b.login("alice")

	// A hall manager is refused another hall's cabinet.
	b.click("#logout")
	b.login("petr")
	b.open("/cabinet?id=CAB-BRNO")
	if b.text("h1") != "403" {
		t.Fatal("petr opened a Brno cabinet")
	}
	b.shot("11_forbidden_light")
	b.click("#logout")

	// Every page, light and dark, as the administrator; the dashboard in
	// each language.
	b.login("alice")
	pages := []struct{ name, path string }{
		{"02_dashboard", "/"}, {"03_cabinets", "/cabinets"}, {"04_cabinet", "/cabinet?id=CAB-PRAHA"},
		{"05_jackpots", "/jackpots"}, {"06_vouchers", "/vouchers"}, {"07_reports_day", "/reports?period=day&by=cabinet"},
		{"08_reports_month", "/reports?period=month&by=hall"}, {"09_audit", "/audit"}, {"10_users", "/users"}, {"12_players", "/players?q=P"},
		{"13_player", "/player?id=" + account},
	}
	for _, dark := range []bool{false, true} {
		b.theme(dark)
		suffix := map[bool]string{false: "_light", true: "_dark"}[dark]
		for _, p := range pages {
			b.open(p.path)
			b.shot(p.name + suffix)
		}
	}
	b.theme(false)
	for _, l := range []string{"cs", "de"} {
		b.open("/?lang=" + l)
		b.shot("02_dashboard_" + l)
		b.open("/player?id=" + account + "&lang=" + l)
		b.shot("13_player_" + l)
		b.open("/cabinet?id=CAB-PRAHA&lang=" + l)
		b.shot("04_cabinet_" + l)
	}
	b.open("/?lang=en")
	t.Logf("screenshots in %s", dir)
}
