package main

import (
	"os"

	"github.com/polaris-vlt/polaris/firmware/verify"
)

// verifyCmd is `polaris verify`: print the signed manifest's digests (and,
// with -seed, the seeded digests) and check them; see firmware/verify.
func verifyCmd(args []string) int { return verify.Command(args, os.Stdout, os.Stderr) }
