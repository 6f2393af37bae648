package backoffice

import (
	"context"
	"crypto/subtle"
	"crypto/tls"
	"database/sql"
	"errors"
	"fmt"
	"log/slog"
	"mime"
	"net"
	"net/http"
	"strings"
	"sync"
	"time"

	"github.com/polaris-vlt/polaris/central/pki"
	"github.com/polaris-vlt/polaris/central/players"
	"github.com/polaris-vlt/polaris/central/server"
)

// Options configures a Console.
type Options struct {
	Server *server.Server
	Now    func() time.Time // default time.Now
	Log    *slog.Logger
	// SessionTTL is how long a login lasts (default 8 h: a shift).
	SessionTTL time.Duration
	// Title names the operator in the header (default "Polaris").
	Title string
	// LiveRefresh is how often the dashboard's counts reload in their
	// frame (default 5 s); the whole dashboard reloads every 12 times that.
	LiveRefresh time.Duration
}

// Console is the back office web console.
type Console struct {
	srv   *server.Server
	now   func() time.Time
	log   *slog.Logger
	ttl   time.Duration
	title string
	live  time.Duration // Options.LiveRefresh
	pages pageSet
	reg   *players.Registry // nil: the server has no player accounts

	limMu sync.Mutex
	fails map[string]*failures // "u:<name>" and "a:<address>"
}

// New creates the back office's tables in the server's store.
func New(ctx context.Context, o Options) (*Console, error) {
	if o.Server == nil {
		return nil, errors.New("backoffice: no server")
	}
	if o.Now == nil {
		o.Now = time.Now
	}
	if o.Log == nil {
		o.Log = slog.New(slog.DiscardHandler)
	}
	if o.SessionTTL == 0 {
		o.SessionTTL = 8 * time.Hour
	}
	if o.LiveRefresh <= 0 {
		o.LiveRefresh = 5 * time.Second
	}
	if o.Title == "" {
		o.Title = "Polaris"
	}
	c := &Console{srv: o.Server, now: o.Now, log: o.Log, ttl: o.SessionTTL, title: o.Title, live: o.LiveRefresh, fails: map[string]*failures{}}
	c.reg, _ = o.Server.Players().(*players.Registry)
	if err := c.srv.Write(ctx, func(tx *sql.Tx) error { _, err := tx.Exec(schema); return err }); err != nil {
		return nil, fmt.Errorf("backoffice: schema: %w", err)
	}
	p, err := parsePages()
	if err != nil {
		return nil, err
	}
	c.pages = p
	return c, nil
}

// TLSConfig is the console's TLS: the central system's server certificate
// from the PKI directory, TLS 1.3, no client certificate (people log in
// with a password).
func TLSConfig(pkiDir string) (*tls.Config, error) {
	t, err := pki.ServerTLSDir(pkiDir)
	if err != nil {
		return nil, err
	}
	t = t.Clone()
	t.ClientAuth, t.ClientCAs = tls.NoClientCert, nil
	return t, nil
}

// ListenTLS serves the console on addr over TLS until the returned
// server is closed.
func (c *Console) ListenTLS(addr string, t *tls.Config) (*http.Server, net.Addr, error) {
	l, err := net.Listen("tcp", addr)
	if err != nil {
		return nil, nil, err
	}
	hs := &http.Server{Handler: c.Handler(), TLSConfig: t, ReadHeaderTimeout: 10 * time.Second,
		ErrorLog: slog.NewLogLogger(c.log.Handler(), slog.LevelWarn)}
	go func() {
		if err := hs.ServeTLS(l, "", ""); err != nil && !errors.Is(err, http.ErrServerClosed) {
			c.log.Error("back office stopped", "err", err)
		}
	}()
	return hs, l.Addr(), nil
}

// session is a logged-in request's user and CSRF token.
type session struct {
	User *User
	CSRF string
	key  string
}

const (
	cookieSession = "bo_session"
	cookieLogin   = "bo_login" // CSRF token of the login form (before a session)
	cookieLang    = "bo_lang"
)

func (c *Console) setCookie(w http.ResponseWriter, name, value string, maxAge int) {
	http.SetCookie(w, &http.Cookie{Name: name, Value: value, Path: "/", MaxAge: maxAge,
		Secure: true, HttpOnly: true, SameSite: http.SameSiteStrictMode})
}

func (c *Console) lookupSession(r *http.Request) (*session, error) {
	ck, err := r.Cookie(cookieSession)
	if err != nil || ck.Value == "" {
		return nil, nil
	}
	key := sessionKey(ck.Value)
	s := &session{User: &User{}, key: key}
	var halls string
	var expires int64
	err = c.srv.DB().QueryRowContext(r.Context(), `SELECT s.csrf, s.expires_at, u.name, u.role, u.halls FROM bo_sessions s JOIN bo_users u ON u.name = s.user_name WHERE s.id_hash = ?`, key).
		Scan(&s.CSRF, &expires, &s.User.Name, &s.User.Role, &halls)
	if errors.Is(err, sql.ErrNoRows) {
		return nil, nil
	}
	if err != nil {
		return nil, err
	}
	if c.now().UnixNano() >= expires {
		return nil, nil
	}
	s.User.Halls = splitHalls(halls)
	return s, nil
}

// failures counts a key's failed logins since its last success.
type failures struct {
	n    int
	last time.Time
}

// Login throttling: after freeFailures failures, each further attempt must
// wait 2^(n-freeFailures) seconds (at most maxWait) after the last failure,
// per user name and per client address, whichever is longer.
const (
	freeFailures = 3
	maxWait      = 5 * time.Minute
)

func (c *Console) wait(keys ...string) time.Duration {
	c.limMu.Lock()
	defer c.limMu.Unlock()
	var longest time.Duration
	now := c.now()
	for _, k := range keys {
		f := c.fails[k]
		if f == nil || f.n < freeFailures {
			continue
		}
		d := time.Second << min(f.n-freeFailures, 20)
		d = min(d, maxWait)
		if left := f.last.Add(d).Sub(now); left > longest {
			longest = left
		}
	}
	return longest
}

// maxTracked bounds the failure table: a flood of invented user names
// must not grow it without end. Entries whose wait has passed go first.
const maxTracked = 10000

func (c *Console) failed(keys ...string) {
	c.limMu.Lock()
	defer c.limMu.Unlock()
	if len(c.fails) >= maxTracked {
		for k, f := range c.fails {
			if c.now().Sub(f.last) > maxWait {
				delete(c.fails, k)
			}
		}
	}
	for _, k := range keys {
		f := c.fails[k]
		if f == nil {
			f = &failures{}
			c.fails[k] = f
		}
		f.n++
		f.last = c.now()
	}
}

func (c *Console) succeeded(keys ...string) {
	c.limMu.Lock()
	defer c.limMu.Unlock()
	for _, k := range keys {
		delete(c.fails, k)
	}
}

func clientAddr(r *http.Request) string {
	h, _, err := net.SplitHostPort(r.RemoteAddr)
	if err != nil {
		return r.RemoteAddr
	}
	return h
}

// login checks the form and opens a session.
func (c *Console) login(w http.ResponseWriter, r *http.Request) {
	ck, err := r.Cookie(cookieLogin)
	if err != nil || ck.Value == "" || subtle.ConstantTimeCompare([]byte(ck.Value), []byte(r.PostFormValue("csrf"))) != 1 {
		c.refuseCSRF(w, r)
		return
	}
	name, password := strings.TrimSpace(r.PostFormValue("user")), r.PostFormValue("password")
	addr := clientAddr(r)
	keys := []string{"u:" + name, "a:" + addr}
	now := c.now().UnixNano()
	if d := c.wait(keys...); d > 0 {
		c.log.Warn("back office login throttled", "user", name, "address", addr, "wait", d)
		c.writeAudit(r.Context(), "", addr, "login.throttled", name, "", fmt.Sprintf("wait %s", d.Round(time.Second)))
		w.Header().Set("Retry-After", fmt.Sprint(int(d.Seconds())+1))
		c.renderLogin(w, r, http.StatusTooManyRequests, fmt.Sprintf(c.tr(r, "login.wait"), int(d.Seconds())+1))
		return
	}
	u, ok, err := c.checkPassword(r.Context(), name, password)
	if err != nil {
		c.fail(w, r, err)
		return
	}
	if !ok {
		c.failed(keys...)
		c.log.Warn("back office login failed", "user", name, "address", addr)
		c.writeAudit(r.Context(), "", addr, "login.failed", name, "", "")
		c.renderLogin(w, r, http.StatusUnauthorized, c.tr(r, "login.bad"))
		return
	}
	c.succeeded(keys...)
	id, csrf := randomHex(32), randomHex(32)
	err = c.srv.Write(r.Context(), func(tx *sql.Tx) error {
		// Expired sessions go when anyone logs in.
		if _, err := tx.Exec(`DELETE FROM bo_sessions WHERE expires_at <= ?`, now); err != nil {
			return err
		}
		if _, err := tx.Exec(`INSERT INTO bo_sessions(id_hash, user_name, csrf, created_at, expires_at) VALUES(?,?,?,?,?)`,
			sessionKey(id), u.Name, csrf, now, now+int64(c.ttl)); err != nil {
			return err
		}
		return audit(tx, now, u.Name, addr, "login", u.Name, "", u.Role)
	})
	if err != nil {
		c.fail(w, r, err)
		return
	}
	c.setCookie(w, cookieSession, id, int(c.ttl.Seconds()))
	c.setCookie(w, cookieLogin, "", -1)
	http.Redirect(w, r, "/", http.StatusSeeOther)
}

func (c *Console) logout(w http.ResponseWriter, r *http.Request, s *session) {
	now := c.now().UnixNano()
	err := c.srv.Write(r.Context(), func(tx *sql.Tx) error {
		if _, err := tx.Exec(`DELETE FROM bo_sessions WHERE id_hash = ?`, s.key); err != nil {
			return err
		}
		return audit(tx, now, s.User.Name, clientAddr(r), "logout", s.User.Name, "", "")
	})
	if err != nil {
		c.fail(w, r, err)
		return
	}
	c.setCookie(w, cookieSession, "", -1)
	http.Redirect(w, r, "/login", http.StatusSeeOther)
}

// writeAudit appends an audit row in its own transaction (for actions
// that are not the back office's own writes: a failed login, a disable
// done by the server's own call, an export).
func (c *Console) writeAudit(ctx context.Context, actor, addr, action, object, before, after string) {
	now := c.now().UnixNano()
	if err := c.srv.Write(ctx, func(tx *sql.Tx) error { return audit(tx, now, actor, addr, action, object, before, after) }); err != nil {
		c.log.Error("back office audit not stored", "action", action, "object", object, "err", err)
	}
}

// route is one page: who may open it and what it does.
type route struct {
	roles []string // nil: every logged-in user
	get   func(w http.ResponseWriter, r *http.Request, s *session)
	post  func(w http.ResponseWriter, r *http.Request, s *session)
}

func (rt route) allows(u *User) bool {
	if rt.roles == nil {
		return true
	}
	for _, x := range rt.roles {
		if x == u.Role {
			return true
		}
	}
	return false
}

// Handler serves the console.
func (c *Console) Handler() http.Handler {
	all := []string(nil)
	staff := []string{RoleAdmin, RoleManager}
	routes := map[string]route{
		"/":            {roles: all, get: c.dashboard},
		"/live":        {roles: all, get: c.liveCounts},
		"/cabinets":    {roles: all, get: c.cabinets},
		"/cabinet":     {roles: all, get: c.cabinet, post: c.cabinetPost},
		"/jackpots":    {roles: all, get: c.jackpots, post: c.jackpotPaid},
		"/vouchers":    {roles: all, get: c.vouchers, post: c.voucherVoid},
		"/reports":     {roles: []string{RoleAdmin, RoleManager, RoleAuditor}, get: c.reports},
		"/reports.csv": {roles: []string{RoleAdmin, RoleManager, RoleAuditor}, get: c.reportsCSV},
		"/audit":       {roles: []string{RoleAdmin, RoleAuditor}, get: c.auditPage},
		"/users":       {roles: []string{RoleAdmin}, get: c.users, post: c.usersPost},
		"/players":     {roles: playerRoles, get: c.players, post: c.playersPost},
		"/player":      {roles: playerRoles, get: c.player, post: c.playerPost},
		"/logout":      {roles: all, post: c.logout},
	}
	// Which roles may POST where beyond the page's own check (auditors
	// read only).
	postRoles := map[string][]string{
		"/cabinet":  staff,
		"/jackpots": {RoleAdmin, RoleManager, RoleAttendant},
		"/vouchers": staff,
		"/users":    {RoleAdmin},
		"/players":  staff,
		"/player":   staff,
		"/logout":   nil,
	}
	return http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		h := w.Header()
		h.Set("Content-Security-Policy", "default-src 'none'; style-src 'self'; img-src 'self' data:; form-action 'self'; frame-src 'self'; frame-ancestors 'none'; base-uri 'none'")
		if r.URL.Path == "/live" {
			// The dashboard's counts frame: framed by the console only.
			h.Set("Content-Security-Policy", "default-src 'none'; style-src 'self'; form-action 'none'; frame-ancestors 'self'; base-uri 'none'")
		}
		h.Set("X-Content-Type-Options", "nosniff")
		h.Set("Referrer-Policy", "no-referrer")
		h.Set("Cache-Control", "no-store")
		h.Set("Strict-Transport-Security", "max-age=31536000")
		if l := r.URL.Query().Get("lang"); l != "" {
			if _, ok := catalog[l]; ok {
				c.setCookie(w, cookieLang, l, 365*24*3600)
			}
		}
		switch r.URL.Path {
		case "/style.css":
			h.Set("Content-Type", "text/css; charset=utf-8")
			h.Set("Cache-Control", "max-age=3600")
			w.Write(styleCSS)
			return
		case "/login":
			switch r.Method {
			case http.MethodGet:
				c.renderLogin(w, r, http.StatusOK, "")
			case http.MethodPost:
				c.login(w, r)
			default:
				http.Error(w, "method not allowed", http.StatusMethodNotAllowed)
			}
			return
		}
		rt, ok := routes[r.URL.Path]
		if !ok {
			http.NotFound(w, r)
			return
		}
		s, err := c.lookupSession(r)
		if err != nil {
			c.fail(w, r, err)
			return
		}
		if s == nil {
			if r.Method == http.MethodGet {
				http.Redirect(w, r, "/login", http.StatusSeeOther)
			} else {
				http.Error(w, "not logged in", http.StatusUnauthorized)
			}
			return
		}
		if !rt.allows(s.User) {
			c.forbidden(w, r, s)
			return
		}
		switch r.Method {
		case http.MethodGet, http.MethodHead:
			if rt.get == nil {
				http.Error(w, "method not allowed", http.StatusMethodNotAllowed)
				return
			}
			rt.get(w, r, s)
		case http.MethodPost:
			if rt.post == nil {
				http.Error(w, "method not allowed", http.StatusMethodNotAllowed)
				return
			}
			if parseForm(r) != nil || subtle.ConstantTimeCompare([]byte(r.PostFormValue("csrf")), []byte(s.CSRF)) != 1 {
				c.refuseCSRF(w, r)
				return
			}
			if pr, ok := postRoles[r.URL.Path]; ok && pr != nil && !(route{roles: pr}).allows(s.User) {
				c.forbidden(w, r, s)
				return
			}
			rt.post(w, r, s)
		default:
			http.Error(w, "method not allowed", http.StatusMethodNotAllowed)
		}
	})
}

func (c *Console) refuseCSRF(w http.ResponseWriter, r *http.Request) {
	c.log.Warn("back office request without a valid CSRF token refused", "path", r.URL.Path, "address", clientAddr(r))
	http.Error(w, "forbidden: missing or wrong CSRF token", http.StatusForbidden)
}

func (c *Console) forbidden(w http.ResponseWriter, r *http.Request, s *session) {
	c.log.Warn("back office page refused", "path", r.URL.Path, "user", s.User.Name, "role", s.User.Role)
	c.render(w, r, s, http.StatusForbidden, "forbidden", nil)
}

func (c *Console) fail(w http.ResponseWriter, r *http.Request, err error) {
	c.log.Error("back office request failed", "path", r.URL.Path, "err", err)
	http.Error(w, "internal error", http.StatusInternalServerError)
}

// badRequest answers a form the console refuses (nothing changed).
func (c *Console) badRequest(w http.ResponseWriter, r *http.Request, s *session, msg string) {
	c.log.Warn("back office form refused", "path", r.URL.Path, "user", s.User.Name, "why", msg)
	c.render(w, r, s, http.StatusBadRequest, "error", map[string]any{"Message": msg})
}

// Bootstrap creates the first administrator when the console has no user
// yet (polaris-central serve -backoffice-admin NAME, the password from
// the environment); with users already, it does nothing.
func (c *Console) Bootstrap(ctx context.Context, name, password string) (created bool, err error) {
	var n int
	if err := c.srv.DB().QueryRowContext(ctx, `SELECT count(*) FROM bo_users`).Scan(&n); err != nil {
		return false, err
	}
	if n > 0 {
		return false, nil
	}
	if err := c.AddUser(ctx, "bootstrap", name, password, RoleAdmin, nil); err != nil {
		return false, err
	}
	return true, nil
}

// parseForm parses a POST's form, multipart too (the exclusion register
// upload), so that the CSRF token is found in either; the body is bounded.
func parseForm(r *http.Request) error {
	if mt, _, _ := mime.ParseMediaType(r.Header.Get("Content-Type")); mt == "multipart/form-data" {
		r.Body = http.MaxBytesReader(nil, r.Body, 128<<20)
		return r.ParseMultipartForm(8 << 20)
	}
	return r.ParseForm()
}
