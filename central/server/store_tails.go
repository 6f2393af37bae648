package server

import (
	"database/sql"
	"errors"
)

// A batch's tails: the part of a job that writes the rows every node's
// batches share (a jackpot pool), put off to the end of the PostgreSQL
// writer's batch. The nodes' batches then run side by side for everything
// a cabinet owns alone (its row lock, its rounds, its credit mirror) and
// take the batch lock only for their tails and commit: a pool row stays
// locked from its first update to the commit, so a pool updated mid-batch
// held every other node's batch back for the whole of this one. Under the
// one lock the tails take the pools in any order without deadlocking. On
// SQLite (one writer) a tail runs at once, inside its job.

// tail is a job's part run at its batch's end.
type tail struct {
	cabinet string
	payload any // for beforeTails
	fn      func(tx *sql.Tx) error
}

// errCarry is a job's answer when its cabinet already has a tail in the
// open batch: what that tail writes (the round) is not there yet, so the
// job runs again at the head of the next batch, after the commit (the
// store's caller never sees it).
var errCarry = errors.New("central store: cabinet busy in this batch")

// atBatchEnd runs fn, the job's part that writes shared rows, after every
// job of the batch and before its commit, in the jobs' order (PostgreSQL);
// on SQLite, or outside the writer's batch, at once. An error of a put-off
// fn fails the whole batch (UNAVAILABLE: the cabinets ask again), so fn
// must fail only when the database does: a job checks what could refuse
// it before it puts its tail off. The cabinet's later jobs in the batch are
// carried to the next one (errCarry from lockCabinet). The payloads of a
// batch's tails go to beforeTails, if set, before the first tail runs;
// afterTails runs after the last.
func (st *store) atBatchEnd(tx *sql.Tx, cabinet string, payload any, fn func(tx *sql.Tx) error) error {
	if !st.piped(tx) {
		return fn(tx)
	}
	st.tails = append(st.tails, tail{cabinet, payload, fn})
	if st.tailCabinet == nil {
		st.tailCabinet = map[string]bool{}
	}
	st.tailCabinet[cabinet] = true
	return nil
}

// dropTails forgets the tails from index keep on: those of a job that
// failed (its savepoint is rolled back).
func (st *store) dropTails(keep int) {
	if keep >= len(st.tails) {
		return
	}
	for _, t := range st.tails[keep:] {
		delete(st.tailCabinet, t.cabinet)
	}
	// A cabinet has one tail in a batch (its next job is carried), so
	// none of the kept tails shares a dropped one's cabinet.
	st.tails = st.tails[:keep]
}

// runTails takes the batch lock and runs the batch's tails in order.
func (st *store) runTails(tx *sql.Tx) error {
	if len(st.tails) == 0 {
		return nil
	}
	if err := st.lockBatches(tx); err != nil {
		return err
	}
	if st.beforeTails != nil {
		payloads := make([]any, len(st.tails))
		for i, t := range st.tails {
			payloads[i] = t.payload
		}
		if err := st.beforeTails(tx, payloads); err != nil {
			return err
		}
	}
	for _, t := range st.tails {
		if err := t.fn(tx); err != nil {
			return err
		}
	}
	if st.afterTails != nil {
		return st.afterTails(tx)
	}
	return nil
}

// lockBatches takes the batch lock for the rest of tx (PostgreSQL): the
// tails of every node's batches, and anything else that writes the shared
// rows (a jackpot's setup), run one batch at a time. Taken twice in one
// transaction it is held once.
func (st *store) lockBatches(tx *sql.Tx) error {
	if st.backend != backendPostgres {
		return nil
	}
	return st.execLater(tx, `SELECT pg_advisory_xact_lock(?)`, int64(batchLock))
}
