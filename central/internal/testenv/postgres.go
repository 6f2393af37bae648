package testenv

import (
	"fmt"
	"strings"
	"sync"
	"sync/atomic"
	"testing"

	"github.com/polaris-vlt/polaris/internal/pgcluster"
)

// onPostgres: test name -> the cluster its Envs keep their stores in.
var onPostgres sync.Map

type pgTarget struct{ c *pgcluster.Cluster }

var pgDatabases atomic.Int64 // database names unique within the test binary

// OnPostgres starts a throwaway PostgreSQL cluster for t (pgcluster:
// without PostgreSQL's programs t skips, or fails under
// POLARIS_TOOLS_REQUIRED=1) and makes every Env that Start starts under t
// (t and its subtests) keep its store in a new database of it instead of
// a SQLite file: a room's tests, written once against Start, run on
// PostgreSQL as subtests of one test that called OnPostgres, one cluster
// for all of them. Until t ends.
func OnPostgres(t testing.TB) {
	t.Helper()
	c := pgcluster.ForTest(t)
	onPostgres.Store(t.Name(), &pgTarget{c: c})
	t.Cleanup(func() { onPostgres.Delete(t.Name()) })
}

// postgresFor is a new database's URL when t runs under OnPostgres, else "".
func postgresFor(t testing.TB) (string, error) {
	name := t.Name()
	for {
		if v, ok := onPostgres.Load(name); ok {
			url, err := v.(*pgTarget).c.CreateDatabase(fmt.Sprintf("env_%d", pgDatabases.Add(1)))
			if err != nil {
				return "", fmt.Errorf("testenv: %w", err)
			}
			return url, nil
		}
		i := strings.LastIndexByte(name, '/')
		if i < 0 {
			return "", nil
		}
		name = name[:i]
	}
}
