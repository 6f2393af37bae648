package backoffice

import (
	"bytes"
	"context"
	"database/sql"
	_ "embed"
	"encoding/csv"
	"errors"
	"fmt"
	"html/template"
	"net/http"
	"sort"
	"strconv"
	"strings"
	"time"

	"github.com/polaris-vlt/polaris/central/players"
	"github.com/polaris-vlt/polaris/central/reports"
	"github.com/polaris-vlt/polaris/central/server"
	"github.com/polaris-vlt/polaris/language"
)

//go:embed web/pages.html
var pagesHTML string

//go:embed web/style.css
var styleCSS []byte

type pageSet struct{ t *template.Template }

func parsePages() (pageSet, error) {
	t, err := template.New("").Funcs(template.FuncMap{
		"T":     tr,
		"money": money,
		"ts":    ts,
		"day":   func(ns int64) string { return time.Unix(0, ns).UTC().Format("2006-01-02") },
		"join":  strings.Join,
		"langs": language.All,
		"upper": strings.ToUpper,
	}).Parse(pagesHTML)
	if err != nil {
		return pageSet{}, fmt.Errorf("backoffice: templates: %w", err)
	}
	return pageSet{t}, nil
}

// money formats integer minor units of the game's currency with grouped
// thousands (the store keeps whole units of engine.Money).
func money(v int64) string {
	neg := v < 0
	if neg {
		v = -v
	}
	s := strconv.FormatInt(v, 10)
	var b strings.Builder
	for i, r := range s {
		if i > 0 && (len(s)-i)%3 == 0 {
			b.WriteString("\u00a0")
		}
		b.WriteRune(r)
	}
	if neg {
		return "−" + b.String()
	}
	return b.String()
}

func ts(ns int64) string {
	if ns == 0 {
		return "—"
	}
	return time.Unix(0, ns).UTC().Format("2006-01-02 15:04:05")
}

// view is what every page template gets.
type view struct {
	Title, Lang, Page, CSRF string
	User                    *User
	Nav                     []navItem
	Now                     int64
	D                       map[string]any
}

type navItem struct {
	Path, Key string
	Current   bool
}

func (c *Console) lang(r *http.Request) string {
	// ?lang= chooses (and the handler keeps it in a cookie), then the
	// cookie, then the browser's languages.
	if l := r.URL.Query().Get("lang"); l != "" {
		if _, ok := catalog[l]; ok {
			return l
		}
	}
	if ck, err := r.Cookie(cookieLang); err == nil {
		if _, ok := catalog[ck.Value]; ok {
			return ck.Value
		}
	}
	for _, part := range strings.Split(r.Header.Get("Accept-Language"), ",") {
		l := strings.TrimSpace(strings.SplitN(strings.SplitN(part, ";", 2)[0], "-", 2)[0])
		if _, ok := catalog[l]; ok {
			return l
		}
	}
	return language.Fallback
}

func (c *Console) tr(r *http.Request, key string) string { return tr(c.lang(r), key) }

var navAll = []struct {
	path, key string
	roles     []string
}{
	{"/", "nav.dashboard", nil},
	{"/cabinets", "nav.cabinets", nil},
	{"/jackpots", "nav.jackpots", nil},
	{"/vouchers", "nav.vouchers", nil},
	{"/reports", "nav.reports", []string{RoleAdmin, RoleManager, RoleAuditor}},
	{"/players", "nav.players", playerRoles},
	{"/audit", "nav.audit", []string{RoleAdmin, RoleAuditor}},
	{"/users", "nav.users", []string{RoleAdmin}},
}

func (c *Console) render(w http.ResponseWriter, r *http.Request, s *session, status int, page string, d map[string]any) {
	v := view{Title: c.title, Lang: c.lang(r), Page: page, Now: c.now().UnixNano(), D: d}
	if s != nil {
		v.User, v.CSRF = s.User, s.CSRF
		for _, n := range navAll {
			if (route{roles: n.roles}).allows(s.User) {
				// A player's page is under Players.
				v.Nav = append(v.Nav, navItem{n.path, n.key, n.path == r.URL.Path || n.path == "/players" && r.URL.Path == "/player"})
			}
		}
	}
	var buf bytes.Buffer
	if err := c.pages.t.ExecuteTemplate(&buf, page, v); err != nil {
		c.fail(w, r, err)
		return
	}
	w.Header().Set("Content-Type", "text/html; charset=utf-8")
	w.WriteHeader(status)
	buf.WriteTo(w)
}

func (c *Console) renderLogin(w http.ResponseWriter, r *http.Request, status int, msg string) {
	token := randomHex(32)
	c.setCookie(w, cookieLogin, token, 3600)
	v := view{Title: c.title, Lang: c.lang(r), Page: "login", CSRF: token, Now: c.now().UnixNano(), D: map[string]any{"Message": msg}}
	var buf bytes.Buffer
	if err := c.pages.t.ExecuteTemplate(&buf, "login", v); err != nil {
		c.fail(w, r, err)
		return
	}
	w.Header().Set("Content-Type", "text/html; charset=utf-8")
	w.WriteHeader(status)
	buf.WriteTo(w)
}

// cabinetView is a cabinet with its live state.
type cabinetView struct {
	reports.CabinetRow
	Online bool
	State  string // online, offline, tilted, disabled
}

func (c *Console) visibleCabinets(ctx context.Context, u *User) ([]cabinetView, error) {
	rows, err := reports.Cabinets(ctx, c.srv.DB())
	if err != nil {
		return nil, err
	}
	on := c.srv.Links().Connected()
	var out []cabinetView
	for _, r := range rows {
		if !u.Sees(r.Hall) {
			continue
		}
		v := cabinetView{CabinetRow: r, Online: on[r.ID]}
		switch {
		case !r.Enabled:
			v.State = "disabled"
		case r.Tilted():
			v.State = "tilted"
		case v.Online:
			v.State = "online"
		default:
			v.State = "offline"
		}
		out = append(out, v)
	}
	return out, nil
}

// stateCounts counts cabinets by their one state.
func stateCounts(cabs []cabinetView) map[string]int {
	counts := map[string]int{"online": 0, "offline": 0, "tilted": 0, "disabled": 0}
	for _, cb := range cabs {
		counts[cb.State]++
	}
	return counts
}

// liveCounts is the dashboard's frame of counts: it reloads itself every
// Options.LiveRefresh (a meta refresh: the console has no script), so the
// counts change without the dashboard reloading.
func (c *Console) liveCounts(w http.ResponseWriter, r *http.Request, s *session) {
	cabs, err := c.visibleCabinets(r.Context(), s.User)
	if err != nil {
		c.fail(w, r, err)
		return
	}
	c.render(w, r, s, http.StatusOK, "live", map[string]any{
		"Counts": stateCounts(cabs), "Refresh": int(max(c.live/time.Second, 1)),
	})
}

func (c *Console) dashboard(w http.ResponseWriter, r *http.Request, s *session) {
	ctx := r.Context()
	cabs, err := c.visibleCabinets(ctx, s.User)
	if err != nil {
		c.fail(w, r, err)
		return
	}
	mine := map[string]bool{}
	for _, cb := range cabs {
		mine[cb.ID] = true
	}
	now := c.now()
	since := now.Add(-23 * time.Hour).Truncate(time.Hour)
	var hours []reports.HourBucket
	if s.User.AllHalls() {
		hours, err = reports.RoundsPerHour(ctx, c.srv.DB(), since.UnixNano())
	} else {
		// Per hall: summed in Go from the visible cabinets' rounds.
		hours, err = c.hoursFor(ctx, since, mine)
	}
	if err != nil {
		c.fail(w, r, err)
		return
	}
	alarms, err := reports.AlarmList(ctx, c.srv.DB(), reports.AlarmFilter{Since: now.Add(-24 * time.Hour).UnixNano(), Limit: 200})
	if err != nil {
		c.fail(w, r, err)
		return
	}
	var open []reports.AlarmRecord
	for _, a := range alarms {
		if mine[a.Cabinet] || s.User.AllHalls() {
			open = append(open, a)
		}
	}
	if len(open) > 20 {
		open = open[:20]
	}
	// Per hall: the cabinets by state and today's (UTC) play.
	type hallRow struct {
		Hall                               string
		Cabinets, Online, Tilted, Disabled int
		Rounds, Stakes, Wins, GGR          int64
	}
	hallsBy := map[string]*hallRow{}
	for _, cb := range cabs {
		h := hallsBy[cb.Hall]
		if h == nil {
			h = &hallRow{Hall: cb.Hall}
			hallsBy[cb.Hall] = h
		}
		h.Cabinets++
		switch cb.State {
		case "online":
			h.Online++
		case "tilted":
			h.Tilted++
		case "disabled":
			h.Disabled++
		}
	}
	day := now.UTC().Truncate(24 * time.Hour)
	today, err := reports.DailyTotals(ctx, c.srv.DB(), day.UnixNano(), day.Add(24*time.Hour).UnixNano())
	if err != nil {
		c.fail(w, r, err)
		return
	}
	for _, d := range today {
		if h := hallsBy[d.Hall]; h != nil && mine[d.Cabinet] {
			h.Rounds += d.Rounds
			h.Stakes += d.Stakes
			h.Wins += d.Wins
			h.GGR += d.Stakes - d.Wins
		}
	}
	var halls []hallRow
	for _, h := range hallsBy {
		halls = append(halls, *h)
	}
	sort.Slice(halls, func(i, j int) bool { return halls[i].Hall < halls[j].Hall })
	lang := c.lang(r)
	c.render(w, r, s, http.StatusOK, "dashboard", map[string]any{
		"Halls":       halls,
		"PageRefresh": int(max(12*c.live/time.Second, 1)),
		"RoundsChart": hourChart(hours, since, 24, func(b reports.HourBucket) int64 { return b.Rounds }, tr(lang, "dash.rounds"), false),
		"StakesChart": hourChart(hours, since, 24, func(b reports.HourBucket) int64 { return b.Stakes }, tr(lang, "dash.stakes"), true),
		"Alarms":      open,
	})
}

func (c *Console) hoursFor(ctx context.Context, since time.Time, cabs map[string]bool) ([]reports.HourBucket, error) {
	acc := map[int64]*reports.HourBucket{}
	for cab := range cabs {
		rows, err := reports.LastRounds(ctx, c.srv.DB(), cab, 100000)
		if err != nil {
			return nil, err
		}
		for _, r := range rows {
			if r.DrawnAt < since.UnixNano() {
				continue
			}
			h := r.DrawnAt / int64(time.Hour)
			b := acc[h]
			if b == nil {
				b = &reports.HourBucket{Hour: h}
				acc[h] = b
			}
			b.Rounds++
			b.Stakes += r.Stake
		}
	}
	var out []reports.HourBucket
	for _, b := range acc {
		out = append(out, *b)
	}
	return out, nil
}

func (c *Console) cabinets(w http.ResponseWriter, r *http.Request, s *session) {
	cabs, err := c.visibleCabinets(r.Context(), s.User)
	if err != nil {
		c.fail(w, r, err)
		return
	}
	c.render(w, r, s, http.StatusOK, "cabinets", map[string]any{"Cabinets": cabs})
}

// findCabinet returns the cabinet id if u may see it.
func (c *Console) findCabinet(ctx context.Context, u *User, id string) (*cabinetView, error) {
	cabs, err := c.visibleCabinets(ctx, &User{Role: RoleAdmin})
	if err != nil {
		return nil, err
	}
	for _, cb := range cabs {
		if cb.ID == id {
			if !u.Sees(cb.Hall) {
				return nil, errForbidden
			}
			return &cb, nil
		}
	}
	return nil, errNotFound
}

var (
	errForbidden = errors.New("not your hall")
	errNotFound  = errors.New("not found")
)

func (c *Console) lookupErr(w http.ResponseWriter, r *http.Request, s *session, err error) {
	switch {
	case errors.Is(err, errForbidden):
		c.forbidden(w, r, s)
	case errors.Is(err, errNotFound):
		c.render(w, r, s, http.StatusNotFound, "error", map[string]any{"Message": c.tr(r, "err.notfound")})
	default:
		c.fail(w, r, err)
	}
}

func (c *Console) cabinet(w http.ResponseWriter, r *http.Request, s *session) {
	ctx := r.Context()
	id := r.URL.Query().Get("id")
	cb, err := c.findCabinet(ctx, s.User, id)
	if err != nil {
		c.lookupErr(w, r, s, err)
		return
	}
	meters, err := reports.LatestMeters(ctx, c.srv.DB(), id)
	if err != nil {
		c.fail(w, r, err)
		return
	}
	events, err := reports.LastEvents(ctx, c.srv.DB(), id, 30)
	if err != nil {
		c.fail(w, r, err)
		return
	}
	rounds, err := reports.LastRounds(ctx, c.srv.DB(), id, 20)
	if err != nil {
		c.fail(w, r, err)
		return
	}
	type roundView struct {
		reports.RoundRow
		Outcome outcomeView
	}
	rv := make([]roundView, len(rounds))
	for i, rd := range rounds {
		rv[i] = roundView{rd, describeOutcome(c.srv.PublicKey(), id, rd)}
	}
	ls, err := c.srv.Links().Link(ctx, id)
	if err != nil {
		c.fail(w, r, err)
		return
	}
	alarms := c.srv.Alarms().Count(id)
	var al []string
	for k, v := range alarms {
		al = append(al, fmt.Sprintf("%s × %d", k, v))
	}
	sort.Strings(al)
	c.render(w, r, s, http.StatusOK, "cabinet", map[string]any{
		"Cab": cb, "Meters": meters, "Events": events, "Rounds": rv, "AlarmCounts": al, "Link": newLinkView(ls),
		"CanSwitch": s.User.Role == RoleAdmin || s.User.Role == RoleManager,
	})
}

func (c *Console) cabinetPost(w http.ResponseWriter, r *http.Request, s *session) {
	ctx := r.Context()
	id := r.PostFormValue("id")
	cb, err := c.findCabinet(ctx, s.User, id)
	if err != nil {
		c.lookupErr(w, r, s, err)
		return
	}
	before := "enabled"
	if !cb.Enabled {
		before = "disabled: " + cb.Reason
	}
	switch r.PostFormValue("action") {
	case "disable":
		reason := strings.TrimSpace(r.PostFormValue("reason"))
		if reason == "" {
			c.badRequest(w, r, s, c.tr(r, "err.reason"))
			return
		}
		if err := c.srv.Cabinets().Disable(ctx, id, reason+" ("+s.User.Name+")"); err != nil {
			c.fail(w, r, err)
			return
		}
		c.writeAudit(ctx, s.User.Name, clientAddr(r), "cabinet.disable", id, before, "disabled: "+reason)
	case "enable":
		if err := c.srv.Cabinets().Enable(ctx, id); err != nil {
			c.fail(w, r, err)
			return
		}
		c.writeAudit(ctx, s.User.Name, clientAddr(r), "cabinet.enable", id, before, "enabled")
	default:
		c.badRequest(w, r, s, "unknown action")
		return
	}
	http.Redirect(w, r, "/cabinet?id="+id, http.StatusSeeOther)
}

// MS-18: jackpots up to 50 000 CZK are paid at the venue within 7 days,
// larger ones at the operator's seat within 30 days.
const venueLimit = 50000

type winView struct {
	reports.JackpotWin
	Deadline int64
	Where    string // "venue" or "seat"
	Paid     *Payout
	// Player is the verified account that played the round (nil:
	// anonymous): the MS-18 form's winner is prefilled from it.
	Player  *players.Account
	Overdue bool
}

func (c *Console) jackpotRegister(ctx context.Context, u *User) ([]winView, error) {
	wins, err := reports.JackpotWins(ctx, c.srv.DB())
	if err != nil {
		return nil, err
	}
	paid, err := c.payouts(ctx)
	if err != nil {
		return nil, err
	}
	now := c.now().UnixNano()
	var out []winView
	for _, w := range wins {
		if !u.Sees(w.Hall) {
			continue
		}
		v := winView{JackpotWin: w, Where: "venue", Deadline: w.At + int64(7*24*time.Hour)}
		if w.Amount > venueLimit {
			v.Where, v.Deadline = "seat", w.At+int64(30*24*time.Hour)
		}
		if p, ok := paid[winKey(w.Cabinet, w.Round)]; ok {
			v.Paid = &p
		} else {
			v.Overdue = now > v.Deadline
			if c.reg != nil {
				if v.Player, err = c.reg.RoundPlayer(ctx, w.Cabinet, w.Round); err != nil {
					return nil, err
				}
			}
		}
		out = append(out, v)
	}
	return out, nil
}

type poolView struct {
	Hall         string
	Pools        []poolValue
	Hits, Unpaid map[string]int // per pool, in this hall's register
}

type poolValue struct {
	Pool, Name, Game string
	Amount           int64
}

func (c *Console) jackpots(w http.ResponseWriter, r *http.Request, s *session) {
	ctx := r.Context()
	reg, err := c.jackpotRegister(ctx, s.User)
	if err != nil {
		c.fail(w, r, err)
		return
	}
	cabs, err := c.visibleCabinets(ctx, s.User)
	if err != nil {
		c.fail(w, r, err)
		return
	}
	halls := map[string]bool{}
	for _, cb := range cabs {
		halls[cb.Hall] = true
	}
	var pools []poolView
	for h := range halls {
		pv := poolView{Hall: h, Hits: map[string]int{}, Unpaid: map[string]int{}}
		for _, v := range c.srv.Links().JackpotValues(h) {
			pv.Pools = append(pv.Pools, poolValue{Pool: v.Pool, Name: v.Name, Game: string(v.Game), Amount: int64(v.Amount)})
		}
		for _, w := range reg {
			if w.Hall == h {
				pv.Hits[w.Pool]++
				if w.Paid == nil {
					pv.Unpaid[w.Pool]++
				}
			}
		}
		pools = append(pools, pv)
	}
	sort.Slice(pools, func(i, j int) bool { return pools[i].Hall < pools[j].Hall })
	c.render(w, r, s, http.StatusOK, "jackpots", map[string]any{"Register": reg, "Pools": pools,
		"CanPay": s.User.Role != RoleAuditor})
}

func (c *Console) jackpotPaid(w http.ResponseWriter, r *http.Request, s *session) {
	ctx := r.Context()
	cab := r.PostFormValue("cabinet")
	round, err := strconv.ParseUint(r.PostFormValue("round"), 10, 64)
	if err != nil {
		c.badRequest(w, r, s, "round: "+err.Error())
		return
	}
	reg, err := c.jackpotRegister(ctx, &User{Role: RoleAdmin})
	if err != nil {
		c.fail(w, r, err)
		return
	}
	var win *winView
	for i := range reg {
		if reg[i].Cabinet == cab && reg[i].Round == round {
			win = &reg[i]
		}
	}
	if win == nil {
		c.lookupErr(w, r, s, errNotFound)
		return
	}
	if !s.User.Sees(win.Hall) {
		c.forbidden(w, r, s)
		return
	}
	if win.Paid != nil {
		c.badRequest(w, r, s, c.tr(r, "err.paid"))
		return
	}
	f := func(k string) string { return strings.TrimSpace(r.PostFormValue(k)) }
	p := Payout{Attendant: f("attendant"), Form: f("form"), WinnerName: f("winner"), WinnerDoc: f("document"), RecordedBy: s.User.Name}
	// MS-18: an incomplete form voids the claim, so every field is required.
	if p.Attendant == "" || p.Form == "" || p.WinnerName == "" || p.WinnerDoc == "" {
		c.badRequest(w, r, s, c.tr(r, "err.form"))
		return
	}
	now := c.now().UnixNano()
	p.PaidAt = now
	err = c.srv.Write(ctx, func(tx *sql.Tx) error {
		if _, err := tx.Exec(`INSERT INTO bo_jackpot_payouts(cabinet, round, paid_at, attendant, form_number, winner_name, winner_document, recorded_by) VALUES(?,?,?,?,?,?,?,?)`,
			cab, int64(round), now, p.Attendant, p.Form, p.WinnerName, p.WinnerDoc, p.RecordedBy); err != nil {
			return err
		}
		return audit(tx, now, s.User.Name, clientAddr(r), "jackpot.paid", winKey(cab, round), "unpaid "+strconv.FormatInt(win.Amount, 10),
			fmt.Sprintf("paid %d; attendant %s; form %s; winner %s; document %s", win.Amount, p.Attendant, p.Form, p.WinnerName, p.WinnerDoc))
	})
	if err != nil {
		c.fail(w, r, err)
		return
	}
	http.Redirect(w, r, "/jackpots", http.StatusSeeOther)
}

type voucherView struct {
	reports.VoucherRow
	Expired bool
	Void    *VoidRequest
}

func (c *Console) vouchers(w http.ResponseWriter, r *http.Request, s *session) {
	ctx := r.Context()
	q := strings.TrimSpace(r.URL.Query().Get("q"))
	filter := r.URL.Query().Get("filter") // outstanding, expired, pending, all
	state := ""
	if filter == "outstanding" || filter == "expired" {
		state = "issued"
	}
	rows, err := reports.Vouchers(ctx, c.srv.DB(), q, state, 500)
	if err != nil {
		c.fail(w, r, err)
		return
	}
	voids, err := c.voids(ctx)
	if err != nil {
		c.fail(w, r, err)
		return
	}
	now := c.now().UnixNano()
	var out []voucherView
	var outstanding, expired int64
	for _, v := range rows {
		if !s.User.Sees(v.Hall) {
			continue
		}
		vv := voucherView{VoucherRow: v, Expired: v.State == "issued" && v.ExpiresAt <= now}
		if vr, ok := voids[v.Number]; ok {
			vv.Void = &vr
		}
		if filter == "outstanding" && vv.Expired || filter == "expired" && !vv.Expired || filter == "pending" && (vv.Void == nil || vv.Void.ApprovedBy != "") {
			continue
		}
		if v.State == "issued" {
			if vv.Expired {
				expired += v.Amount
			} else {
				outstanding += v.Amount
			}
		}
		out = append(out, vv)
	}
	c.render(w, r, s, http.StatusOK, "vouchers", map[string]any{"Vouchers": out, "Q": q, "Filter": filter,
		"Outstanding": outstanding, "Expired": expired, "Filters": []string{"all", "outstanding", "expired", "pending"}, "CanVoid": s.User.Role == RoleAdmin || s.User.Role == RoleManager})
}

// voucherVoid requests a void (first person) or approves one (a second,
// different person): only the approval voids the voucher.
func (c *Console) voucherVoid(w http.ResponseWriter, r *http.Request, s *session) {
	ctx := r.Context()
	number := strings.TrimSpace(r.PostFormValue("number"))
	v, err := reports.Vouchers(ctx, c.srv.DB(), number, "", 2)
	if err != nil {
		c.fail(w, r, err)
		return
	}
	if len(v) != 1 || v[0].Number != number {
		c.lookupErr(w, r, s, errNotFound)
		return
	}
	if !s.User.Sees(v[0].Hall) {
		c.forbidden(w, r, s)
		return
	}
	now := c.now().UnixNano()
	addr := clientAddr(r)
	switch r.PostFormValue("action") {
	case "request":
		reason := strings.TrimSpace(r.PostFormValue("reason"))
		if reason == "" {
			c.badRequest(w, r, s, c.tr(r, "err.reason"))
			return
		}
		if v[0].State != "issued" {
			c.badRequest(w, r, s, c.tr(r, "err.notvoidable"))
			return
		}
		err = c.srv.Write(ctx, func(tx *sql.Tx) error {
			res, err := tx.Exec(`INSERT INTO bo_voucher_voids(number, reason, requested_by, requested_at) VALUES(?,?,?,?) ON CONFLICT(number) DO NOTHING`, number, reason, s.User.Name, now)
			if err != nil {
				return err
			}
			if n, _ := res.RowsAffected(); n != 1 {
				return errAlreadyRequested
			}
			return audit(tx, now, s.User.Name, addr, "voucher.void.request", number, v[0].State, "void requested: "+reason)
		})
	case "approve":
		err = c.srv.Write(ctx, func(tx *sql.Tx) error {
			var by, approved string
			if err := tx.QueryRow(`SELECT requested_by, approved_by FROM bo_voucher_voids WHERE number = ?`, number).Scan(&by, &approved); err != nil {
				if errors.Is(err, sql.ErrNoRows) {
					return errNoRequest
				}
				return err
			}
			if approved != "" {
				return errAlreadyRequested
			}
			if by == s.User.Name {
				return errSamePerson
			}
			if err := server.VoidVoucherTx(tx, number); err != nil {
				return err
			}
			if _, err := tx.Exec(`UPDATE bo_voucher_voids SET approved_by = ?, approved_at = ? WHERE number = ?`, s.User.Name, now, number); err != nil {
				return err
			}
			return audit(tx, now, s.User.Name, addr, "voucher.void.approve", number, "issued", "void (requested by "+by+")")
		})
	default:
		c.badRequest(w, r, s, "unknown action")
		return
	}
	switch {
	case errors.Is(err, errSamePerson):
		c.badRequest(w, r, s, c.tr(r, "err.sameperson"))
	case errors.Is(err, errNoRequest), errors.Is(err, errAlreadyRequested), errors.Is(err, server.ErrVoucherNotVoidable):
		c.badRequest(w, r, s, c.tr(r, "err.notvoidable")+" ("+err.Error()+")")
	case err != nil:
		c.fail(w, r, err)
	default:
		http.Redirect(w, r, "/vouchers?q="+number, http.StatusSeeOther)
	}
}

var (
	errSamePerson       = errors.New("the void must be approved by another person")
	errNoRequest        = errors.New("no void was requested")
	errAlreadyRequested = errors.New("a void was requested or approved already")
)

func (c *Console) auditPage(w http.ResponseWriter, r *http.Request, s *session) {
	rows, err := c.auditLog(r.Context(), 500)
	if err != nil {
		c.fail(w, r, err)
		return
	}
	c.render(w, r, s, http.StatusOK, "audit", map[string]any{"Rows": rows})
}

func (c *Console) users(w http.ResponseWriter, r *http.Request, s *session) {
	rows, err := c.srv.DB().QueryContext(r.Context(), `SELECT name, role, halls, created_at FROM bo_users ORDER BY name`)
	if err != nil {
		c.fail(w, r, err)
		return
	}
	defer rows.Close()
	type urow struct {
		Name, Role, Halls string
		Created           int64
	}
	var out []urow
	for rows.Next() {
		var u urow
		if err := rows.Scan(&u.Name, &u.Role, &u.Halls, &u.Created); err != nil {
			c.fail(w, r, err)
			return
		}
		out = append(out, u)
	}
	c.render(w, r, s, http.StatusOK, "users", map[string]any{"Users": out, "Roles": roles})
}

func (c *Console) usersPost(w http.ResponseWriter, r *http.Request, s *session) {
	var halls []string
	for _, h := range strings.Split(r.PostFormValue("halls"), ",") {
		if h = strings.TrimSpace(h); h != "" {
			halls = append(halls, h)
		}
	}
	if err := c.AddUser(r.Context(), s.User.Name, r.PostFormValue("name"), r.PostFormValue("password"), r.PostFormValue("role"), halls); err != nil {
		if errors.Is(err, ErrBadUser) {
			c.badRequest(w, r, s, err.Error())
			return
		}
		c.fail(w, r, err)
		return
	}
	http.Redirect(w, r, "/users", http.StatusSeeOther)
}

// Report is one row of a report: a cabinet's or a hall's totals of one
// day or month.
type Report struct {
	Period, Hall, Cabinet                       string
	Rounds, Stakes, Wins, GGR                   int64
	Jackpots, Handpays, VouchersOut, VouchersIn int64
}

// report is one report as the page and the CSV export show it: its rows,
// their total, and the parameters it was made for.
type report struct {
	Rows     []Report
	Total    Report
	Period   string // "day" or "month"
	By       string // "cabinet" or "hall"
	From, To string // the first and the last day, 2006-01-02
}

func (c *Console) report(ctx context.Context, u *User, q map[string][]string) (report, error) {
	get := func(k, def string) string {
		if v := q[k]; len(v) > 0 && v[0] != "" {
			return v[0]
		}
		return def
	}
	now := c.now().UTC()
	rp := report{
		Period: get("period", "day"),
		By:     get("by", "cabinet"),
		From:   get("from", now.AddDate(0, 0, -30).Format("2006-01-02")),
		To:     get("to", now.Format("2006-01-02")),
	}
	period, by := rp.Period, rp.By
	f, err1 := time.Parse("2006-01-02", rp.From)
	t, err2 := time.Parse("2006-01-02", rp.To)
	if err1 != nil || err2 != nil || t.Before(f) || (period != "day" && period != "month") || (by != "cabinet" && by != "hall") {
		return rp, errBadReport
	}
	days, err := reports.DailyTotals(ctx, c.srv.DB(), f.UnixNano(), t.AddDate(0, 0, 1).UnixNano())
	if err != nil {
		return rp, err
	}
	acc := map[[3]string]*Report{}
	total := &rp.Total
	for _, d := range days {
		if !u.Sees(d.Hall) {
			continue
		}
		p := time.Unix(0, d.Day*int64(24*time.Hour)).UTC().Format("2006-01-02")
		if period == "month" {
			p = p[:7]
		}
		cab := d.Cabinet
		if by == "hall" {
			cab = ""
		}
		k := [3]string{p, d.Hall, cab}
		row := acc[k]
		if row == nil {
			row = &Report{Period: p, Hall: d.Hall, Cabinet: cab}
			acc[k] = row
		}
		for _, x := range []*Report{row, total} {
			x.Rounds += d.Rounds
			x.Stakes += d.Stakes
			x.Wins += d.Wins
			x.GGR += d.Stakes - d.Wins
			x.Jackpots += d.Jackpots
			x.Handpays += d.Handpays
			x.VouchersOut += d.VouchersOut
			x.VouchersIn += d.VouchersIn
		}
	}
	out := make([]Report, 0, len(acc))
	for _, row := range acc {
		out = append(out, *row)
	}
	sort.Slice(out, func(i, j int) bool {
		a, b := out[i], out[j]
		if a.Period != b.Period {
			return a.Period < b.Period
		}
		if a.Hall != b.Hall {
			return a.Hall < b.Hall
		}
		return a.Cabinet < b.Cabinet
	})
	rp.Rows = out
	return rp, nil
}

var errBadReport = errors.New("bad report parameters")

func (c *Console) reports(w http.ResponseWriter, r *http.Request, s *session) {
	rp, err := c.report(r.Context(), s.User, r.URL.Query())
	if errors.Is(err, errBadReport) {
		c.badRequest(w, r, s, c.tr(r, "err.report"))
		return
	}
	if err != nil {
		c.fail(w, r, err)
		return
	}
	c.render(w, r, s, http.StatusOK, "reports", map[string]any{"Rows": rp.Rows, "Total": rp.Total, "Period": rp.Period, "By": rp.By, "From": rp.From, "To": rp.To,
		"CSV": "/reports.csv?" + r.URL.Query().Encode()})
}

func (c *Console) reportsCSV(w http.ResponseWriter, r *http.Request, s *session) {
	rp, err := c.report(r.Context(), s.User, r.URL.Query())
	if errors.Is(err, errBadReport) {
		c.badRequest(w, r, s, c.tr(r, "err.report"))
		return
	}
	if err != nil {
		c.fail(w, r, err)
		return
	}
	c.writeAudit(r.Context(), s.User.Name, clientAddr(r), "report.export", fmt.Sprintf("%s by %s %s..%s", rp.Period, rp.By, rp.From, rp.To), "", fmt.Sprintf("%d rows", len(rp.Rows)))
	w.Header().Set("Content-Type", "text/csv; charset=utf-8")
	w.Header().Set("Content-Disposition", fmt.Sprintf(`attachment; filename="polaris-report-%s-%s-%s-%s.csv"`, rp.Period, rp.By, rp.From, rp.To))
	cw := csv.NewWriter(w)
	cw.Write([]string{"period", "hall", "cabinet", "rounds", "stakes", "wins", "ggr", "jackpots", "handpays", "vouchers_issued", "vouchers_redeemed"})
	line := func(x Report) {
		cw.Write([]string{x.Period, x.Hall, x.Cabinet, fmt.Sprint(x.Rounds), fmt.Sprint(x.Stakes), fmt.Sprint(x.Wins), fmt.Sprint(x.GGR),
			fmt.Sprint(x.Jackpots), fmt.Sprint(x.Handpays), fmt.Sprint(x.VouchersOut), fmt.Sprint(x.VouchersIn)})
	}
	for _, x := range rp.Rows {
		line(x)
	}
	total := rp.Total
	total.Period = "total"
	line(total)
	cw.Flush()
}
