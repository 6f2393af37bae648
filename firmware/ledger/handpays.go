package ledger

// PaidHandpays returns the handpays the attendant paid by hand (receipt or
// form) among the last finished documents, newest first: what the
// attendant's menu may reprint.
func (l *Ledger) PaidHandpays() []DocRecord {
	l.mu.RLock()
	defer l.mu.RUnlock()
	var out []DocRecord
	for _, r := range docLog(l.kv, "done/") {
		switch r.Kind {
		case DocHandpayWin, DocHandpayJackpot, DocHandpayCancel:
			if r.Result == DocPaid {
				out = append(out, r)
			}
		}
	}
	return out
}
