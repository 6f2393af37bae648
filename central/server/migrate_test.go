package server_test

import (
	"path/filepath"
	"sync"
	"testing"

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
	if n != 3 || distinct != 3 {
		t.Fatalf("%d migrations recorded (%d versions), want 3 once each", n, distinct)
	}
	if err := db.QueryRow(`SELECT count(*) FROM pg_trigger WHERE tgrelid = 'bo_audit'::regclass AND NOT tgisinternal`).Scan(&triggers); err != nil || triggers != 3 {
		t.Fatalf("%d triggers on bo_audit (%v), want 3 (UPDATE, DELETE, TRUNCATE)", triggers, err)
	}
}
