package app

import (
	"context"
	"syscall"
	"time"

	"github.com/polaris-vlt/polaris/firmware/cabinet"
)

// StorageEvery is how often the ledger's free space is read.
const StorageEvery = 30 * time.Second

// storageHealth reads the free space of the file systems holding dirs
// (the ledger's two copies) and reports the least.
func storageHealth(dirs ...string) cabinet.StorageHealth {
	h := cabinet.StorageHealth{Free: -1}
	for _, d := range dirs {
		var st syscall.Statfs_t
		if err := syscall.Statfs(d, &st); err != nil {
			return cabinet.StorageHealth{Err: err}
		}
		if free := int64(st.Bavail) * int64(st.Bsize); h.Free < 0 || free < h.Free {
			h.Free = free
		}
	}
	return h
}

// watchStorage posts the ledger's storage health now and every
// StorageEvery until ctx ends (check 27: low NV-storage health tilts).
func (a *App) watchStorage(ctx context.Context) {
	t := time.NewTicker(StorageEvery)
	defer t.Stop()
	for {
		a.Cabinet.Post(storageHealth(a.Opt.LedgerA, a.Opt.LedgerB))
		select {
		case <-ctx.Done():
			return
		case <-t.C:
		}
	}
}
