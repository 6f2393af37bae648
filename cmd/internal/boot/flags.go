package boot

import (
	"context"
	"flag"
	"log"
	"os"
	"os/signal"
	"path/filepath"
	"strconv"
	"syscall"

	"github.com/polaris-vlt/polaris/cmd/internal/rtdebug"
	"github.com/polaris-vlt/polaris/firmware/app"
	"github.com/polaris-vlt/polaris/firmware/cabinet"
)

// Flags are the flags every cabinet command shares: which profiles, where
// the data and the ledger's two copies live, the central system, -v
// (log tilts and device refusals) and the debug endpoint. board is the
// default board profile. The presentation keeps its default timing.
func Flags(fs *flag.FlagSet, o *app.Options, board string) {
	o.Timing = cabinet.DefaultTiming
	fs.BoolFunc("v", "log tilts and device refusals", func(v string) error {
		on, err := strconv.ParseBool(v)
		if on {
			o.Logf = log.Printf
		}
		return err
	})
	fs.StringVar(&o.Market, "market", "demo", "market profile: at, cz, demo, or a .toml file (/etc/polaris/market/at.toml)")
	fs.StringVar(&o.Board, "board", board, "board profile: devkit, rpi-cabinet, or a .toml file (/etc/polaris/board/rpi-cabinet.toml)")
	fs.StringVar(&o.DataDir, "data", "data", "data directory (ledger copies unless -ledger-a/-ledger-b; the devkit's embedded central system and its PKI)")
	fs.StringVar(&o.LedgerA, "ledger-a", "", "directory of the ledger's first copy (default DATA/ledger-a)")
	fs.StringVar(&o.Central, "central", "", "host:port of the operator's central system (the devkit embeds one when empty)")
	fs.StringVar(&o.PKIDir, "pki", "/etc/polaris/pki", "with -central: ca.pem, cabinets/ID.pem and .key, signing.pub")
	fs.StringVar(&o.CabinetID, "id", "dev-1", "this cabinet's id (the name in its certificate)")
	fs.StringVar(&o.LedgerB, "ledger-b", "", "directory of the ledger's second copy, on a second medium (default DATA/ledger-b)")
	fs.Func("debug-addr", "loopback address of a pprof and runtime-numbers endpoint (soak tests; off unless given)", rtdebug.Flag(filepath.Base(os.Args[0])))
}

// Signals is the command's context: ended by SIGINT or SIGTERM.
func Signals() (context.Context, context.CancelFunc) {
	return signal.NotifyContext(context.Background(), os.Interrupt, syscall.SIGTERM)
}
