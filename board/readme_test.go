package board

import (
	"os"
	"regexp"
	"strings"
	"testing"
)

// bcmToHeader is the 40-pin header position of each BCM GPIO (Pi 4 and 5).
var bcmToHeader = map[string]string{
	"GPIO2": "3", "GPIO3": "5", "GPIO4": "7", "GPIO14": "8", "GPIO15": "10", "GPIO17": "11",
	"GPIO18": "12", "GPIO27": "13", "GPIO22": "15", "GPIO23": "16", "GPIO24": "18", "GPIO10": "19",
	"GPIO9": "21", "GPIO25": "22", "GPIO11": "23", "GPIO8": "24", "GPIO7": "26", "GPIO0": "27",
	"GPIO1": "28", "GPIO5": "29", "GPIO6": "31", "GPIO12": "32", "GPIO13": "33", "GPIO19": "35",
	"GPIO16": "36", "GPIO26": "37", "GPIO20": "38", "GPIO21": "40",
}

// The wiring table in README.md is the technician's: it must say what the
// rpi-cabinet profile says, pin for pin, at the right header position.
func TestReadmeWiringTableMatchesProfile(t *testing.T) {
	readme, err := os.ReadFile("README.md")
	if err != nil {
		t.Fatal(err)
	}
	rows := map[string][2]string{} // BCM line → header pin, function
	row := regexp.MustCompile(`(?m)^\|\s*(\d+)\s*\|\s*(GPIO\d+)\s*\|\s*([^|]+)\|`)
	for _, m := range row.FindAllStringSubmatch(string(readme), -1) {
		if _, dup := rows[m[2]]; dup {
			t.Errorf("%s has two rows", m[2])
		}
		rows[m[2]] = [2]string{m[1], strings.ToLower(m[3])}
	}
	p, err := Load("rpi-cabinet")
	if err != nil {
		t.Fatal(err)
	}
	word := strings.NewReplacer("button ", "", "_key", "", "bet_plus", "bet+", "bet_minus", "bet−",
		"door_cashbox", "door cash box", "door_", "door ", "lamp ", "", "tower ", "", "meter ", "")
	cfg := p.GPIOConfig()
	seen := 0
	for _, l := range append(cfg.InputLines(), cfg.OutputLines()...) {
		if !strings.HasPrefix(l.Name, "GPIO") {
			continue
		}
		seen++
		r, ok := rows[l.Name]
		if !ok {
			t.Errorf("%s (%s) is not in the README table", l.Name, l.Use)
			continue
		}
		if r[0] != bcmToHeader[l.Name] {
			t.Errorf("README puts %s on header pin %s, it is pin %s", l.Name, r[0], bcmToHeader[l.Name])
		}
		if w := word.Replace(l.Use); !strings.Contains(r[1], w) {
			t.Errorf("README row for %s says %q, profile says %s", l.Name, strings.TrimSpace(r[1]), l.Use)
		}
	}
	if seen != len(rows) {
		t.Errorf("README table has %d header rows, profile uses %d header lines", len(rows), seen)
	}
}
