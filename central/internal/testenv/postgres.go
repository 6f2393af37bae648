package testenv

import (
	"fmt"
	"strings"
	"sync"
	"sync/atomic"
	"testing"

	"github.com/polaris-vlt/polaris/central/internal/pgcluster"
)

// onPostgres: test name -> the cluster its Envs keep their stores in.
var onPostgres sync.Map

type pgTarget struct{ c *pgcluster.Cluster }

var pgDatabases atomic.Int64 // database names unique within the test binary

// OnPostgres makes every Env that Start starts under t (t and its
// subtests) keep its store in a new database of cluster c instead of a
// SQLite file: a room's tests, written once against Start, run on
// PostgreSQL by calling them as subtests of a test that called
// OnPostgres. Until t ends.
func OnPostgres(t testing.TB, c *pgcluster.Cluster) {
	t.Helper()
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
