package cabinet

import (
	"go/ast"
	"go/parser"
	"go/token"
	"os"
	"strings"
	"testing"
)

// maxFields is the most fields a type of this package may have: a type
// with more holds more than one concern (the Cabinet had 48).
const maxFields = 15

// TestNoTypeHasMoreThan15Fields reads every Go file of the package, tests
// included, and fails naming each struct type with more than maxFields
// fields (a line "a, b int" counts two).
func TestNoTypeHasMoreThan15Fields(t *testing.T) {
	fset := token.NewFileSet()
	//lint:ignore SA1019 every file of the directory, whatever its build tags: what ParseDir does
	pkgs, err := parser.ParseDir(fset, ".", func(fi os.FileInfo) bool { return strings.HasSuffix(fi.Name(), ".go") }, 0)
	if err != nil {
		t.Fatal(err)
	}
	checked := 0
	for _, p := range pkgs {
		for _, f := range p.Files {
			ast.Inspect(f, func(n ast.Node) bool {
				st, ok := n.(*ast.StructType)
				if !ok {
					return true
				}
				checked++
				if k := fieldCount(st); k > maxFields {
					t.Errorf("%s: a struct with %d fields (at most %d)", fset.Position(st.Pos()), k, maxFields)
				}
				return true
			})
		}
	}
	if checked < 10 {
		t.Fatalf("only %d struct types found: the scan is broken", checked)
	}
}

func fieldCount(st *ast.StructType) int {
	k := 0
	for _, f := range st.Fields.List {
		k += max(len(f.Names), 1) // an embedded field has no name
	}
	return k
}

// TestFieldCountCountsEveryField: the counter sees 16 fields in a struct
// of 16, so the test above can fail.
func TestFieldCountCountsEveryField(t *testing.T) {
	src := "package p\ntype T struct {\n a, b, c, d int\n e, f, g, h string\n i, j, k, l bool\n m, n, o byte\n fmtStringer\n}\n"
	f, err := parser.ParseFile(token.NewFileSet(), "t.go", src, 0)
	if err != nil {
		t.Fatal(err)
	}
	st := f.Decls[0].(*ast.GenDecl).Specs[0].(*ast.TypeSpec).Type.(*ast.StructType)
	if k := fieldCount(st); k != 16 {
		t.Fatalf("counted %d fields, want 16", k)
	}
}
