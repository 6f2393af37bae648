package crashtest

import (
	"os"
	"os/exec"
	"strings"
	"syscall"
	"testing"
)

// The test binary is also the child: TestMain runs RunChild when asked.
func TestMain(m *testing.M) {
	if os.Getenv("POLARIS_LEDGER_CRASH_CHILD") == "1" {
		cfg, err := ParseChildArgs(os.Args[1:])
		if err != nil {
			os.Stderr.WriteString(err.Error())
			os.Exit(2)
		}
		RunChild(cfg, os.Stdout)
		os.Exit(3)
	}
	os.Exit(m.Run())
}

func childCmd(args []string) *exec.Cmd {
	cmd := exec.Command(os.Args[0], args...)
	cmd.Env = append(os.Environ(), "POLARIS_LEDGER_CRASH_CHILD=1")
	// It writes until killed: killed with the test binary too (Run starts
	// it from goroutines that lock no thread, so the signal goes with the
	// process; see childproc).
	cmd.SysProcAttr = &syscall.SysProcAttr{Pdeathsig: syscall.SIGKILL}
	return cmd
}

func TestCrashKills(t *testing.T) {
	kills := 25 // make crash-ledger-ci runs 300
	if testing.Short() {
		kills = 10
	}
	var log strings.Builder
	res, err := Run(Config{Kills: kills, Seed: 42, Child: childCmd, Log: &log})
	if err != nil {
		t.Fatal(err)
	}
	t.Logf("%+v", res)
	if res.Discrepancies != 0 || res.Kills != kills {
		t.Fatalf("%d kills, %d discrepancies\n%s", res.Kills, res.Discrepancies, log.String())
	}
	if res.Acked < int64(kills) {
		t.Fatalf("only %d transactions acknowledged: the kills came too early to test anything", res.Acked)
	}
}
