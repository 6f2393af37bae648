package ledger

import (
	"strings"
	"testing"
)

// A verification's streaming read finds what the full read finds: the same
// chain head and state digest on a good copy, and a changed value or a
// changed chain entry as a fault.
func TestCheckCopyFreshAgreesWithReadCopyFresh(t *testing.T) {
	l, o := busyLedger(t, 40)
	must(t, l.LogEvent("x", "", "", 0, nil))
	l.Close()
	for _, dir := range []string{o.DirA, o.DirB} {
		img, err := readCopyFresh(dir, "quick_check")
		if err != nil {
			t.Fatal(err)
		}
		head, digest, err := checkCopyFresh(dir, "quick_check")
		if err != nil {
			t.Fatal(err)
		}
		if head.Seq != img.head.Seq || head.Hash != img.head.Hash || head.Digest != img.head.Digest || digest != img.digest {
			t.Fatalf("%s: streamed head %d %x digest %x, full read head %d %x digest %x", dir, head.Seq, head.Hash, digest, img.head.Seq, img.head.Hash, img.digest)
		}
	}
	for _, c := range []struct{ name, sql, want string }{
		{"a value changed", `UPDATE state SET v = x'00' WHERE k = (SELECT MAX(k) FROM state)`, "state digest does not match"},
		{"a chain entry changed", `UPDATE chain SET entry = x'00' WHERE seq = (SELECT MIN(seq) + 1 FROM chain)`, "chain hash wrong"},
		{"a chain row gone", `DELETE FROM chain WHERE seq = (SELECT MIN(seq) + 2 FROM chain)`, "chain gap"},
	} {
		dir := t.TempDir()
		image(t, o.DirA, dir)
		db, err := openDB(dir+"/"+DBName, false)
		if err != nil {
			t.Fatal(err)
		}
		if _, err := db.Exec(c.sql); err != nil {
			t.Fatal(err)
		}
		db.Close()
		if _, _, err := checkCopyFresh(dir, "quick_check"); err == nil || !strings.Contains(err.Error(), c.want) {
			t.Errorf("%s: %v, want %q", c.name, err, c.want)
		}
	}
}
