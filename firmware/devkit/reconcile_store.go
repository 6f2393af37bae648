package devkit

import (
	"database/sql"

	"github.com/polaris-vlt/polaris/central/embedded"
	"github.com/polaris-vlt/polaris/central/server"
)

func (rc *Reconciler) openStore() (*sql.DB, error) { return OpenStore(rc.DataDir, rc.Store) }

// OpenStore opens a cabinet's central store for reading: with store ""
// the embedded one in dataDir, else store, the SQLite file of a
// polaris-central node or the PostgreSQL database several nodes share
// (the crash harness against real central nodes). The audit reads
// (reports.DrawnRounds, …) take either.
func OpenStore(dataDir, store string) (*sql.DB, error) {
	switch {
	case store == "":
		return server.OpenReadOnly(embedded.StorePath(dataDir))
	case server.IsPostgresURL(store):
		return server.OpenPostgres(store)
	default:
		return server.OpenReadOnly(store)
	}
}
