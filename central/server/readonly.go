package server

import "database/sql"

// OpenReadOnly opens the store file at path for reading only, for the
// queries of central/reports while nothing runs.
func OpenReadOnly(path string) (*sql.DB, error) {
	return sql.Open("sqlite", "file:"+path+"?mode=ro")
}
