package backoffice

import (
	"database/sql"
	"fmt"
	"io"
	"net/http"
	"net/url"
	"strconv"
	"strings"
	"time"

	"github.com/polaris-vlt/polaris/central/players"
)

// Player pages. Hall managers act on every player, not only those
// registered in their halls: an account belongs to the operator, not to a
// hall (one account per person per operator, a session that spans
// cabinets and halls), and the registry records no hall. Auditors read;
// attendants see a player only as the jackpot form prefills it.

var playerRoles = []string{RoleAdmin, RoleManager, RoleAuditor}

func (c *Console) canAct(u *User) bool {
	return (route{roles: []string{RoleAdmin, RoleManager}}).allows(u)
}

// exclusionImporter is who imported the register in force, from the audit log.
func (c *Console) exclusionImporter(r *http.Request) string {
	var who string
	c.srv.Write(r.Context(), func(tx *sql.Tx) error {
		return tx.QueryRow(`SELECT actor FROM bo_audit WHERE action='players.import' ORDER BY seq DESC LIMIT 1`).Scan(&who)
	})
	return who
}

func (c *Console) players(w http.ResponseWriter, r *http.Request, s *session) {
	reg := c.reg
	if reg == nil {
		c.render(w, r, s, http.StatusOK, "players", map[string]any{"Off": true})
		return
	}
	q := strings.TrimSpace(r.URL.Query().Get("q"))
	found, err := reg.Search(r.Context(), q, 100)
	if err != nil {
		c.fail(w, r, err)
		return
	}
	ex, err := reg.Exclusions(r.Context())
	if err != nil {
		c.fail(w, r, err)
		return
	}
	open, err := reg.Reviews(r.Context(), false)
	if err != nil {
		c.fail(w, r, err)
		return
	}
	c.render(w, r, s, http.StatusOK, "players", map[string]any{
		"Q": q, "Found": found, "Ex": ex, "ExAt": ns(ex.ImportedAt), "ExBy": c.exclusionImporter(r), "Reviews": open,
		"CanAct": c.canAct(s.User), "Msg": r.URL.Query().Get("msg"),
	})
}

func ns(t time.Time) int64 {
	if t.IsZero() {
		return 0
	}
	return t.UnixNano()
}

type limitView struct {
	players.Limit
	PendingFromNS int64
}

func (c *Console) player(w http.ResponseWriter, r *http.Request, s *session) {
	if c.reg == nil {
		http.NotFound(w, r)
		return
	}
	id := r.URL.Query().Get("id")
	in, err := c.reg.Show(r.Context(), id)
	if err != nil {
		c.playerErr(w, r, s, err)
		return
	}
	now := c.now()
	hist, err := c.reg.History(r.Context(), id, now.AddDate(0, 0, -31), now.Add(time.Second))
	if err != nil {
		c.fail(w, r, err)
		return
	}
	// The last 50, newest first.
	var last []players.Entry
	for i := len(hist) - 1; i >= 0 && len(last) < 50; i-- {
		last = append(last, hist[i])
	}
	var lims []limitView
	for _, l := range in.Limits {
		lims = append(lims, limitView{l, ns(l.PendingFrom)})
	}
	c.render(w, r, s, http.StatusOK, "player", map[string]any{
		"P": in, "Limits": lims, "History": last, "CanAct": c.canAct(s.User) && !in.Account.Closed,
		"Kinds": players.Kinds, "Msg": r.URL.Query().Get("msg"),
	})
}

// playerErr shows a registry refusal (bad input, unknown account) as a
// clear 400 and anything else as a failure.
func (c *Console) playerErr(w http.ResponseWriter, r *http.Request, s *session, err error) {
	if rf, ok := players.AsRefusal(err); ok {
		c.badRequest(w, r, s, rf.Message)
		return
	}
	c.fail(w, r, err)
}

// playerSummary is an account's state for the audit log's before/after.
func (c *Console) playerSummary(r *http.Request, id string) string {
	in, err := c.reg.Show(r.Context(), id)
	if err != nil {
		return "—"
	}
	var b strings.Builder
	fmt.Fprintf(&b, "blocked=%q closed=%v cards=", in.Account.Blocked, in.Account.Closed)
	for i, cd := range in.Cards {
		if i > 0 {
			b.WriteString(",")
		}
		b.WriteString(cd.ID)
		if cd.Blocked {
			b.WriteString("(blocked)")
		}
	}
	for _, l := range in.Limits {
		fmt.Fprintf(&b, " %s=%s", l.Kind, limitText(l))
	}
	for _, v := range in.Reviews {
		if v.Decided {
			fmt.Fprintf(&b, " review%d=%s(%s: %s)", v.ID, v.Decision, v.DecidedBy, v.Note)
		} else {
			fmt.Fprintf(&b, " review%d=open", v.ID)
		}
	}
	return b.String()
}

func limitText(l players.Limit) string {
	s := "undecided"
	switch {
	case l.Decided && l.Set:
		s = strconv.FormatInt(l.Amount, 10)
	case l.Decided:
		s = "none"
	}
	if l.Pending {
		p := "none"
		if l.PendingSet {
			p = strconv.FormatInt(l.PendingAmt, 10)
		}
		s += "→" + p + "@" + l.PendingFrom.Format("2006-01-02T15:04Z")
	}
	return s
}

func (c *Console) playersPost(w http.ResponseWriter, r *http.Request, s *session) {
	if c.reg == nil {
		http.NotFound(w, r)
		return
	}
	ctx := r.Context()
	switch r.PostFormValue("action") {
	case "register":
		a, err := c.reg.Register(ctx, players.Registration{
			Name: r.PostFormValue("name"), BirthDate: r.PostFormValue("birth"), DocumentNumber: r.PostFormValue("doc"),
			IdentityVerified: r.PostFormValue("verified") == "on", VerifiedBy: s.User.Name,
		})
		if err != nil {
			c.playerErr(w, r, s, err)
			return
		}
		// The document number is never written anywhere, the audit log included.
		c.writeAudit(ctx, s.User.Name, clientAddr(r), "players.register", a.ID, "—", "name="+a.Name+" born="+a.BirthDate+" verified by "+s.User.Name)
		http.Redirect(w, r, "/player?id="+url.QueryEscape(a.ID), http.StatusSeeOther)
	case "import":
		f, _, err := r.FormFile("file")
		if err != nil {
			c.badRequest(w, r, s, c.tr(r, "p.nofile"))
			return
		}
		defer f.Close()
		b, err := io.ReadAll(io.LimitReader(f, 128<<20))
		if err != nil {
			c.fail(w, r, err)
			return
		}
		before, _ := c.reg.Exclusions(ctx)
		res, err := c.reg.ImportExclusions(ctx, b)
		if err != nil {
			c.playerErr(w, r, s, err)
			return
		}
		after := fmt.Sprintf("date=%s serial=%d entries=%d", res.Date, res.Serial, res.Entries)
		if res.Already {
			after += " (already imported)"
		}
		if len(res.Excluded) > 0 {
			after += " excluded accounts: " + strings.Join(res.Excluded, ",")
		}
		if len(res.Review) > 0 {
			after += " held for review: " + strings.Join(res.Review, ",")
		}
		c.writeAudit(ctx, s.User.Name, clientAddr(r), "players.import", "exclusion register", fmt.Sprintf("date=%s entries=%d", before.Date, before.Entries), after)
		http.Redirect(w, r, "/players?msg=imported", http.StatusSeeOther)
	default:
		c.badRequest(w, r, s, "unknown action")
	}
}

func (c *Console) playerPost(w http.ResponseWriter, r *http.Request, s *session) {
	if c.reg == nil {
		http.NotFound(w, r)
		return
	}
	ctx := r.Context()
	id := r.PostFormValue("id")
	if _, err := c.reg.Show(ctx, id); err != nil {
		c.playerErr(w, r, s, err)
		return
	}
	before := c.playerSummary(r, id)
	action := r.PostFormValue("action")
	reason := strings.TrimSpace(r.PostFormValue("reason"))
	var err error
	switch action {
	case "card":
		err = c.reg.IssueCard(ctx, id, strings.TrimSpace(r.PostFormValue("card")))
	case "block_card":
		if reason == "" {
			c.badRequest(w, r, s, c.tr(r, "err.reason"))
			return
		}
		err = c.reg.BlockCard(ctx, r.PostFormValue("card"), reason+" ("+s.User.Name+")")
	case "block":
		if reason == "" {
			c.badRequest(w, r, s, c.tr(r, "err.reason"))
			return
		}
		err = c.reg.Block(ctx, id, reason+" ("+s.User.Name+")")
	case "unblock":
		err = c.reg.Block(ctx, id, "")
	case "limit":
		var amt *int64
		if v := strings.TrimSpace(r.PostFormValue("amount")); v != "" {
			n, perr := strconv.ParseInt(v, 10, 64)
			if perr != nil || n < 0 {
				c.badRequest(w, r, s, c.tr(r, "p.badamount"))
				return
			}
			amt = &n
		}
		_, err = c.reg.SetLimit(ctx, id, r.PostFormValue("kind"), amt)
	case "review":
		// A probable match (central/players README "Matching names"): the
		// decision is the user's, named in the account's log and here.
		rid, perr := strconv.ParseInt(r.PostFormValue("review"), 10, 64)
		if perr != nil {
			c.badRequest(w, r, s, "review: a number")
			return
		}
		_, err = c.reg.DecideReview(ctx, rid, r.PostFormValue("decision"), s.User.Name, strings.TrimSpace(r.PostFormValue("note")))
	case "close":
		if r.PostFormValue("confirm") != "on" {
			c.badRequest(w, r, s, c.tr(r, "p.confirm"))
			return
		}
		err = c.reg.Close(ctx, id)
	default:
		c.badRequest(w, r, s, "unknown action")
		return
	}
	if err != nil {
		c.playerErr(w, r, s, err)
		return
	}
	c.writeAudit(ctx, s.User.Name, clientAddr(r), "players."+action, id, before, c.playerSummary(r, id))
	http.Redirect(w, r, "/player?id="+url.QueryEscape(id), http.StatusSeeOther)
}
