package devkit

import (
	"sync"

	"github.com/polaris-vlt/polaris/board"
	"github.com/polaris-vlt/polaris/board/emulated"
	"github.com/polaris-vlt/polaris/central/embedded"
	"github.com/polaris-vlt/polaris/firmware/app"
)

// Kit is what the devkit build adds to a cabinet (With): the emulated
// devices of each board the app assembles and the central system embedded
// in the process.
type Kit struct {
	mu      sync.Mutex
	devices *emulated.Devices
}

// With returns o with the devkit's parts: the embedded central system when
// o.Central names none, and emulated devices for the board profile's
// emulated acceptor and printer, logging their documents in DocumentDir
// when the data directory has it (so the cash box and the printed tickets
// outlive the process, as paper does a power cut). o's own BoardOptions
// run after, so a test can still adjust the board.
func With(o app.Options) (app.Options, *Kit) {
	k := &Kit{}
	if o.LocalCentral == nil {
		o.LocalCentral = embedded.Local
	}
	logs := ""
	if dir := DocumentDir(o.DataDir); isDir(dir) {
		logs = dir
	}
	adjust := o.BoardOptions
	o.BoardOptions = func(bo *board.Options) {
		d := emulated.New()
		k.mu.Lock()
		k.devices = d
		k.mu.Unlock()
		bo.Emulators = d
		bo.DocumentLogDir = logs
		if adjust != nil {
			adjust(bo)
		}
	}
	return o, k
}

// Devices are the emulated devices of the board the app assembled last (a
// power cut assembles a new one); nil before the first.
func (k *Kit) Devices() *emulated.Devices {
	k.mu.Lock()
	defer k.mu.Unlock()
	return k.devices
}
