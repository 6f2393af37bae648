package emulator

import (
	"go/parser"
	"go/token"
	"path/filepath"
	"strings"
	"testing"
)

// The emulator is a peer, not a mirror: it must not import the host driver
// (whose codec it is meant to check), not even in tests.
func TestDoesNotImportTheDriver(t *testing.T) {
	files, err := filepath.Glob("*.go")
	if err != nil || len(files) == 0 {
		t.Fatal(files, err)
	}
	for _, f := range files {
		ast, err := parser.ParseFile(token.NewFileSet(), f, nil, parser.ImportsOnly)
		if err != nil {
			t.Fatal(err)
		}
		for _, imp := range ast.Imports {
			if strings.HasSuffix(strings.Trim(imp.Path.Value, `"`), "/drivers/id003") {
				t.Errorf("%s imports the driver", f)
			}
		}
	}
}
