package server_test

import (
	"path/filepath"
	"strings"
	"sync"
	"testing"

	"github.com/polaris-vlt/polaris/central/internal/testenv"
	"github.com/polaris-vlt/polaris/central/server"
)

// nodesStartTogether (a case of TestStoreSuite, on its cluster): three
// nodes starting together on a new PostgreSQL database: each migration
// (the store's, the players', the back office's, with its PL/pgSQL
// trigger) is applied once, and every node starts.
func nodesStartTogether(t *testing.T, b *storeBackend) {
	if b.cluster == nil {
		t.Skip("PostgreSQL's: one SQLite file is one node's")
	}
	e := b.start(t, nil)
	url, err := b.cluster.CreateDatabase("together")
	if err != nil {
		t.Fatal(err)
	}
	var wg sync.WaitGroup
	servers := make([]*server.Server, 3)
	errs := make([]error, 3)
	for i := range servers {
		cfg := e.Cfg
		cfg.DBPath, cfg.StoreMarker = url, filepath.Join(t.TempDir(), "store.id")
		wg.Add(1)
		go func() { defer wg.Done(); servers[i], errs[i] = server.New(cfg) }()
	}
	wg.Wait()
	for i, s := range servers {
		if errs[i] != nil {
			t.Fatalf("node %d: %v", i, errs[i])
		}
		t.Cleanup(func() { s.Close() })
	}
	var n, distinct, triggers int
	db := servers[0].DB()
	if err := db.QueryRow(`SELECT count(*), count(DISTINCT version) FROM schema_migrations`).Scan(&n, &distinct); err != nil {
		t.Fatal(err)
	}
	if n != server.Migrations || distinct != server.Migrations {
		t.Fatalf("%d migrations recorded (%d versions), want %d once each", n, distinct, server.Migrations)
	}
	if err := db.QueryRow(`SELECT count(*) FROM pg_trigger WHERE tgrelid = 'bo_audit'::regclass AND NOT tgisinternal`).Scan(&triggers); err != nil || triggers != 3 {
		t.Fatalf("%d triggers on bo_audit (%v), want 3 (UPDATE, DELETE, TRUNCATE)", triggers, err)
	}
}

// A SQLite store made before the rooms' tables were migrations (only
// version 1 recorded, the rooms' tables made by their Setup with the same
// DDL) takes migrations 2 and 3 at its next start, its rows kept.
func TestSQLiteStoreBeforeRoomMigrations(t *testing.T) {
	e := testenv.Start(t, nil)
	db := e.Server.DB()
	if _, err := db.Exec(`INSERT INTO bo_audit(at, actor, address, action, object, before_value, after_value) VALUES(1, 'system', '', 'user.create', 'alice', '', 'administrator')`); err != nil {
		t.Fatal(err)
	}
	if _, err := db.Exec(`DELETE FROM schema_migrations WHERE version > 1`); err != nil {
		t.Fatal(err)
	}
	e.Restart()
	if n := e.Count("schema_migrations", ""); n != server.Migrations {
		t.Fatalf("%d migrations recorded, want %d", n, server.Migrations)
	}
	if n := e.Count("bo_audit", "actor = 'system'"); n != 1 {
		t.Fatalf("%d audit rows after the upgrade, want 1", n)
	}
	if _, err := e.Server.DB().Exec(`DELETE FROM bo_audit`); err == nil || !strings.Contains(err.Error(), "append-only") {
		t.Fatalf("DELETE of bo_audit after the upgrade: %v, want the trigger's refusal", err)
	}
}
