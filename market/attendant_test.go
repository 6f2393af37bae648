package market

import (
	"os"
	"strings"
	"testing"
)

// profileWith is a minimal valid profile with extra top-level keys and
// tables (they follow the top-level keys).
func profileWith(top, tables string) string {
	return `id = "t"
language = "en"
` + top + `
[currency]
code = "EUR"
minor_units = 2
[[games]]
id = "wishstar"
stakes = [25, 50]
default_stake = 25
[limits]
ticket_out = 2000
large_win = 300
credit = 100000
bills = [500]
[timers]
voucher_expiry_days = 30
` + tables
}

func TestAttendantPINs(t *testing.T) {
	h := HashPIN("2468", []byte("salt-a17-salt"))
	p, err := Parse([]byte(profileWith(`attendant_id = "pin"`, "[[attendants]]\nid = \"A17\"\npin_hash = \""+h+"\"\n")))
	if err != nil {
		t.Fatal(err)
	}
	if a, ok := p.AttendantByPIN("2468"); !ok || a.ID != "A17" {
		t.Fatalf("the right PIN found %+v, %v", a, ok)
	}
	if _, ok := p.AttendantByPIN("2469"); ok {
		t.Fatal("a wrong PIN was accepted")
	}
	if strings.Contains(h, "2468") || HashPIN("2468", []byte("another-salt")) == h {
		t.Fatal("the hash shows the PIN or ignores the salt")
	}
	if p, err := Parse([]byte(profileWith("", ""))); err != nil || p.AttendantID != AttendantKey {
		t.Fatalf("default attendant_id %q, %v; want %q", p.AttendantID, err, AttendantKey)
	}
}

func TestMarketRefusesBadAttendants(t *testing.T) {
	good := "pin_hash = \"" + HashPIN("1111", []byte("salt-salt")) + "\"\n"
	for _, c := range []struct{ name, top, tables, want string }{
		{"pin without attendants", `attendant_id = "pin"`, "", "needs at least one"},
		{"card", `attendant_id = "card"`, "", "not supported yet"},
		{"unknown", `attendant_id = "face"`, "", "not one of"},
		{"bad hash", `attendant_id = "pin"`, "[[attendants]]\nid = \"A1\"\npin_hash = \"1234\"\n", "pin_hash"},
		{"twice", `attendant_id = "pin"`, "[[attendants]]\nid = \"A1\"\n" + good + "[[attendants]]\nid = \"A1\"\n" + good, "twice"},
		{"no id", `attendant_id = "pin"`, "[[attendants]]\n" + good, "printable"},
	} {
		t.Run(c.name, func(t *testing.T) {
			_, err := Parse([]byte(profileWith(c.top, c.tables)))
			if err == nil || !strings.Contains(err.Error(), c.want) {
				t.Fatalf("err %v, want %q", err, c.want)
			}
		})
	}
}

// The staff list format the built-in cz and at profiles document: a hall's
// copy with "pin" and one [[attendants]] table per attendant loads and
// names the attendant by PIN; "pin" without staff is refused.
func TestHallCopyWithStaff(t *testing.T) {
	for _, id := range []string{"cz", "at"} {
		b, err := os.ReadFile("profiles/" + id + ".toml")
		if err != nil {
			t.Fatal(err)
		}
		hall := strings.Replace(string(b), `attendant_id = "key"`, `attendant_id = "pin"`, 1)
		if _, err := Parse([]byte(hall)); err == nil {
			t.Fatalf("%s: pin without staff accepted", id)
		}
		hall += "\n[[attendants]]\nid = \"A17\"\npin_hash = \"" + HashPIN("4711", []byte("hall-salt")) + "\"\n"
		p, err := Parse([]byte(hall))
		if err != nil {
			t.Fatalf("%s: a hall's copy with staff: %v", id, err)
		}
		if a, ok := p.AttendantByPIN("4711"); !ok || a.ID != "A17" || p.AttendantID != AttendantPIN {
			t.Fatalf("%s: attendant %+v %v", id, a, ok)
		}
	}
}
