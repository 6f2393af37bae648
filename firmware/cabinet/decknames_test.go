package cabinet

import (
	"go/ast"
	"go/parser"
	"go/token"
	"os"
	"path/filepath"
	"strconv"
	"strings"
	"testing"

	"github.com/polaris-vlt/polaris/deck"
)

// deviceWords are the constants whose value is a deck name by coincidence
// of English, each with what it names instead; every other use goes
// through them.
var deviceWords = map[string]string{
	"devAcceptor": "the acceptor as a device (its tilt, its events' source), not its door",
}

// deckNames are the names package deck owns: its keys, doors and buttons.
func deckNames() map[string]string {
	names := map[string]string{}
	for _, k := range deck.Keys {
		names[string(k)] = "key"
	}
	for _, d := range deck.Doors {
		names[string(d)] = "door"
	}
	for _, b := range append(deck.Buttons, deck.Info) {
		names[string(b)] = "button"
	}
	return names
}

// deckLiterals lists the string literals of file src that spell a deck
// name, as "file:line: \"name\" (what)".
func deckLiterals(t *testing.T, fset *token.FileSet, name string, src any) []string {
	t.Helper()
	f, err := parser.ParseFile(fset, name, src, 0)
	if err != nil {
		t.Fatal(err)
	}
	names := deckNames()
	exempt := map[*ast.BasicLit]bool{}
	var found []string
	ast.Inspect(f, func(n ast.Node) bool {
		switch n := n.(type) {
		case *ast.ImportSpec:
			return false
		case *ast.ValueSpec:
			for i, id := range n.Names {
				if _, ok := deviceWords[id.Name]; ok && i < len(n.Values) {
					if lit, ok := n.Values[i].(*ast.BasicLit); ok {
						exempt[lit] = true
					}
				}
			}
		case *ast.BasicLit:
			if n.Kind != token.STRING || exempt[n] {
				return true
			}
			s, err := strconv.Unquote(n.Value)
			if err != nil {
				return true
			}
			if what, ok := names[s]; ok {
				found = append(found, fset.Position(n.Pos()).String()+": "+n.Value+" ("+what+")")
			}
		}
		return true
	})
	return found
}

// The cabinet names keys, doors and buttons by deck's constants: a string
// literal would compile against any misspelling and miss a rename.
func TestNoDeckNameLiterals(t *testing.T) {
	files, err := filepath.Glob("*.go")
	if err != nil {
		t.Fatal(err)
	}
	fset := token.NewFileSet()
	for _, name := range files {
		if strings.HasSuffix(name, "_test.go") {
			continue
		}
		src, err := os.ReadFile(name)
		if err != nil {
			t.Fatal(err)
		}
		for _, f := range deckLiterals(t, fset, name, src) {
			t.Errorf("%s: name it by package deck's constant", f)
		}
	}
}

// The check finds a key, a door and a button spelled as literals, and
// lets a device word through only in its own constant.
func TestDeckNameLiteralsFound(t *testing.T) {
	src := `package cabinet
const devAcceptor = "acceptor"
const other = "acceptor"
func f(c *Cabinet) bool { c.play.stopAuto("stop"); return c.cond.keys["technician"] || c.cond.doors["main"] }
`
	got := deckLiterals(t, token.NewFileSet(), "planted.go", src)
	want := []string{
		`planted.go:3:15: "acceptor" (door)`,
		`planted.go:4:43: "stop" (button)`,
		`planted.go:4:71: "technician" (key)`,
		`planted.go:4:101: "main" (door)`,
	}
	if strings.Join(got, "\n") != strings.Join(want, "\n") {
		t.Errorf("found\n%s\nwant\n%s", strings.Join(got, "\n"), strings.Join(want, "\n"))
	}
}
