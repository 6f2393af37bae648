package jackpot

import (
	"errors"
	"os"
	"path/filepath"
	"strings"
	"testing"
)

func TestConfigFiles(t *testing.T) {
	dir := t.TempDir()
	tomlPath := filepath.Join(dir, "jackpot.toml")
	os.WriteFile(tomlPath, []byte(testConfig), 0o644)
	c, err := LoadConfig(tomlPath)
	if err != nil {
		t.Fatal(err)
	}
	if len(c.Pools) != 3 || c.Pools[1].RateBP != 250 || c.Pools[2].Halls[1] != "olomouc-1" || c.CZKPerEUR != 2500 {
		t.Fatalf("parsed %+v", c)
	}
	jsonPath := filepath.Join(dir, "jackpot.json")
	os.WriteFile(jsonPath, []byte(`{"pool":[{"id":"system","scope":"system","seed":100,"must_hit_by":200,"rate_bp":10}]}`), 0o644)
	if c, err := LoadConfig(jsonPath); err != nil || c.Pools[0].MustHitBy != 200 {
		t.Fatalf("json: %+v %v", c, err)
	}
	// The shipped example must load.
	if _, err := LoadConfig("jackpot.example.toml"); err != nil {
		t.Fatalf("example: %v", err)
	}
}

func TestConfigRefused(t *testing.T) {
	pool := func(extra string) string {
		return "[[pool]]\nid = \"s\"\nscope = \"system\"\nseed = 100\nmust_hit_by = 200\nrate_bp = 100\n" + extra
	}
	for _, c := range []struct{ name, text, want string }{
		{"unknown key", pool("ceiling = 5\n"), "unknown key(s): pool.ceiling"},
		{"misspelt top key", "czk_per_euro = 25\n" + pool(""), "unknown key(s): czk_per_euro"},
		{"syntax", "[[pool]\n", "line 1"},
		{"wrong type", "[[pool]]\nid = \"s\"\nscope = \"system\"\nseed = \"100\"\n", "line 4 column 8"},
		{"no pool", "czk_per_eur_centi = 2500\n", "no pool configured"},
		{"bad id", strings.Replace(pool(""), `"s"`, `"a b"`, 1), `pool[0] ("a b").id`},
		{"negative seed", strings.Replace(pool(""), "seed = 100", "seed = -1", 1), "seed: must not be negative"},
		{"ceiling below seed", strings.Replace(pool(""), "must_hit_by = 200", "must_hit_by = 100", 1), "must_hit_by: must be at least seed + 1 CZK"},
		{"ceiling too high", strings.Replace(pool(""), "must_hit_by = 200", "must_hit_by = 1000000001", 1), "must be at most"},
		{"zero rate", strings.Replace(pool(""), "rate_bp = 100", "rate_bp = 0", 1), "rate_bp: must be 1..5000"},
		{"rate too high", strings.Replace(pool(""), "rate_bp = 100", "rate_bp = 5001", 1), "rate_bp"},
		{"bad scope", strings.Replace(pool(""), `"system"`, `"region"`, 1), "must be system, hall or group"},
		{"two system pools", pool("") + strings.Replace(pool(""), `"s"`, `"t"`, 1), "a second system pool"},
		{"duplicate pool", pool("") + strings.Replace(pool(""), `"system"`, `"hall"`, 1), "duplicate pool id"},
		{"system lists halls", pool("halls = [\"h\"]\n"), "a system pool lists no halls"},
		{"hall pool of two halls", "[[hall]]\nid=\"a\"\n[[hall]]\nid=\"b\"\n" + strings.Replace(pool("halls = [\"a\", \"b\"]\n"), `"system"`, `"hall"`, 1), "exactly one hall"},
		{"group of one", "[[hall]]\nid=\"a\"\n" + strings.Replace(pool("halls = [\"a\"]\n"), `"system"`, `"group"`, 1), "at least two halls"},
		{"unknown hall", strings.Replace(pool("halls = [\"a\"]\n"), `"system"`, `"hall"`, 1), `unknown hall "a"`},
		{"hall in two pools", "[[hall]]\nid=\"a\"\n[[hall]]\nid=\"b\"\n" +
			strings.Replace(pool("halls = [\"a\"]\n"), `"system"`, `"hall"`, 1) +
			strings.NewReplacer(`"system"`, `"group"`, `"s"`, `"g"`).Replace(pool("halls = [\"a\", \"b\"]\n")), `hall "a" already feeds pool "s"`},
		{"orphan hall", "[[hall]]\nid=\"a\"\n[[hall]]\nid=\"b\"\n" + strings.Replace(pool("halls = [\"a\"]\n"), `"system"`, `"hall"`, 1), `hall ("b"): feeds no pool`},
		{"duplicate hall", "[[hall]]\nid=\"a\"\n[[hall]]\nid=\"a\"\n" + pool(""), "duplicate hall id"},
		{"cabinet in two halls", "[[hall]]\nid=\"a\"\ncabinets=[\"c1\"]\n[[hall]]\nid=\"b\"\ncabinets=[\"c1\"]\n" + pool(""), `cabinet "c1" is already in hall "a"`},
		{"negative rate", "czk_per_eur_centi = -1\n" + pool(""), "czk_per_eur_centi"},
	} {
		t.Run(c.name, func(t *testing.T) {
			_, err := ParseTOML([]byte(c.text))
			var ce *ConfigError
			if !errors.As(err, &ce) {
				t.Fatalf("got %v, want *ConfigError", err)
			}
			if !strings.Contains(err.Error(), c.want) {
				t.Fatalf("error %q does not say %q", err, c.want)
			}
			if _, err := New(nil, fixedClock()); err == nil {
				t.Fatal("New(nil) accepted")
			}
		})
	}
	for _, c := range []struct{ name, text, want string }{
		{"unknown field", `{"pool":[], "pools":[]}`, "unknown field"},
		{"trailing", `{"pool":[{"id":"s","scope":"system","seed":1,"must_hit_by":2,"rate_bp":1}]} {}`, "trailing data"},
	} {
		t.Run("json "+c.name, func(t *testing.T) {
			_, err := ParseJSON([]byte(c.text))
			var ce *ConfigError
			if !errors.As(err, &ce) || !strings.Contains(err.Error(), c.want) {
				t.Fatalf("got %v, want *ConfigError saying %q", err, c.want)
			}
		})
	}
	dir := t.TempDir()
	for name, want := range map[string]string{"missing.toml": "cannot read", "x.yaml": "unknown file type"} {
		p := filepath.Join(dir, name)
		if name == "x.yaml" {
			os.WriteFile(p, []byte("a: 1"), 0o644)
		}
		_, err := LoadConfig(p)
		var ce *ConfigError
		if !errors.As(err, &ce) || !strings.Contains(err.Error(), want) || ce.File != p {
			t.Errorf("%s: %v", name, err)
		}
	}
	bad := filepath.Join(dir, "bad.toml")
	os.WriteFile(bad, []byte("[[pool]]\nid = \"s\"\n"), 0o644)
	if _, err := LoadConfig(bad); err == nil || !strings.Contains(err.Error(), bad) {
		t.Errorf("a bad file's error does not name it: %v", err)
	}
}
