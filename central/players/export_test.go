package players

import (
	"context"
	"database/sql"
)

// Match levels for the tests.
const (
	MatchNone     = matchNone
	MatchProbable = matchProbable
	MatchCertain  = matchCertain
)

// MatchRegisterName is the rule in memory: a register line's name against
// an account's name, of one birth date.
func MatchRegisterName(line, account string) int {
	w, s := registerName(line)
	return matchNames(w, nameWords(account), s, 0)
}

// MatchAccounts is the rule between two accounts' names.
func MatchAccounts(a, b string) int { return matchNames(nameWords(a), nameWords(b), 0, 0) }

// NameWords is a name's folded words.
func NameWords(s string) []string { return nameWords(s) }

// NormDoc is a document number as compared.
func NormDoc(s string) string { return normDoc(s) }

// RegisterLevel is how the register in force names the account by its
// stored keys (before the staff's decisions).
func (r *Registry) RegisterLevel(ctx context.Context, account string) (int, error) {
	lvl := matchNone
	err := r.write(ctx, func(tx *sql.Tx) error {
		a, err := loadAccount(tx, account)
		if err != nil {
			return err
		}
		m, err := r.registerMatch(tx, a)
		for _, l := range m {
			lvl = max(lvl, l)
		}
		return err
	})
	return lvl, err
}
