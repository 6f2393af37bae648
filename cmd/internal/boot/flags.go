package boot

import (
	"flag"
	"os"
	"path/filepath"

	"github.com/polaris-vlt/polaris/cmd/internal/rtdebug"
	"github.com/polaris-vlt/polaris/firmware/app"
)

// Flags are the flags every cabinet command shares: which profiles, where
// the data and the ledger's two copies live, and the central system.
// board is the default board profile.
func Flags(fs *flag.FlagSet, o *app.Options, board string) {
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
