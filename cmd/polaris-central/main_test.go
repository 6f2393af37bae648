package main

import (
	"os"
	"path/filepath"
	"testing"

	"github.com/polaris-vlt/polaris/central/pki"
)

func TestExampleConfigParses(t *testing.T) {
	cfg, err := loadConfig("central.example.toml")
	if err != nil {
		t.Fatal(err)
	}
	if cfg.Listen == "" || cfg.Halls["cab-3"] != "hall-b" || cfg.HoldTimeout != "2m" {
		t.Fatalf("%+v", cfg)
	}
	bad := filepath.Join(t.TempDir(), "bad.toml")
	os.WriteFile(bad, []byte("listen = \"x\"\nlisten_adress = \"y\"\n"), 0o600)
	if _, err := loadConfig(bad); err == nil {
		t.Fatal("an unknown key was accepted")
	}
}

func TestPKICommand(t *testing.T) {
	dir := filepath.Join(t.TempDir(), "pki")
	if err := pkiCmd([]string{"init", "-dir", dir}); err != nil {
		t.Fatal(err)
	}
	if err := pkiCmd([]string{"cabinet", "-dir", dir, "-id", "cab-1"}); err != nil {
		t.Fatal(err)
	}
	if _, err := pki.CabinetTLSDir(dir, "cab-1", "localhost"); err != nil {
		t.Fatal(err)
	}
	if err := pkiCmd([]string{"cabinet", "-dir", dir, "-id", "bad id"}); err == nil {
		t.Fatal("a bad cabinet id was accepted")
	}
}
