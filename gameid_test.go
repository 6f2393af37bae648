package polaris_test

import (
	"go/ast"
	"go/parser"
	"go/token"
	"io/fs"
	"path/filepath"
	"sort"
	"strconv"
	"strings"
	"testing"
)

// Outside package engine nobody decides by naming a game: a comparison
// (==, !=) or a case clause with one of engine's GameID constants (or
// their string values) is a decision a third game would silently miss.
// Callers ask engine.LayoutOf or a capability of engine/capabilities.go
// instead. Using an id as a value (a fixture's game, a default, a map
// key) is not a decision and passes.

func TestNoGameIDComparisons(t *testing.T) {
	ids := gameIDConstants(t)
	var found []string
	err := filepath.WalkDir(".", func(path string, d fs.DirEntry, err error) error {
		if err != nil {
			return err
		}
		if d.IsDir() {
			if path == "engine" || path != "." && (strings.HasPrefix(d.Name(), ".") || d.Name() == "testdata" || d.Name() == "node_modules") {
				return filepath.SkipDir
			}
			return nil
		}
		if !strings.HasSuffix(path, ".go") || strings.HasSuffix(path, "_test.go") {
			return nil
		}
		found = append(found, gameIDComparisons(t, path, ids)...)
		return nil
	})
	if err != nil {
		t.Fatal(err)
	}
	for _, c := range found {
		t.Errorf("%s: compares a game id; ask engine.LayoutOf or a capability", c)
	}
	t.Logf("game id comparisons outside engine: %d", len(found))
}

// gameIDConstants are engine's GameID constants: name → value.
func gameIDConstants(t *testing.T) map[string]string {
	t.Helper()
	fset := token.NewFileSet()
	ids := map[string]string{}
	files, err := filepath.Glob("engine/*.go")
	if err != nil {
		t.Fatal(err)
	}
	for _, path := range files {
		if strings.HasSuffix(path, "_test.go") {
			continue
		}
		f, err := parser.ParseFile(fset, path, nil, 0)
		if err != nil {
			t.Fatal(err)
		}
		for _, d := range f.Decls {
			gd, ok := d.(*ast.GenDecl)
			if !ok || gd.Tok != token.CONST {
				continue
			}
			for _, s := range gd.Specs {
				vs := s.(*ast.ValueSpec)
				if typ, ok := vs.Type.(*ast.Ident); !ok || typ.Name != "GameID" {
					continue
				}
				for i, n := range vs.Names {
					if lit, ok := vs.Values[i].(*ast.BasicLit); ok {
						v, _ := strconv.Unquote(lit.Value)
						ids[n.Name] = v
					}
				}
			}
		}
	}
	if len(ids) < 2 {
		t.Fatalf("found %d GameID constants in engine/*.go; the check would pass on nothing", len(ids))
	}
	return ids
}

// gameIDComparisons lists "path:line" of each comparison or case clause
// in path that names a game id.
func gameIDComparisons(t *testing.T, path string, ids map[string]string) []string {
	t.Helper()
	fset := token.NewFileSet()
	f, err := parser.ParseFile(fset, path, nil, 0)
	if err != nil {
		t.Fatal(err)
	}
	engineName := ""
	for _, im := range f.Imports {
		if p, _ := strconv.Unquote(im.Path.Value); p == module+"engine" {
			engineName = "engine"
			if im.Name != nil {
				engineName = im.Name.Name
			}
		}
	}
	values := map[string]bool{}
	for _, v := range ids {
		values[v] = true
	}
	isID := func(e ast.Expr) bool {
		switch e := e.(type) {
		case *ast.SelectorExpr:
			x, ok := e.X.(*ast.Ident)
			_, isConst := ids[e.Sel.Name]
			return ok && engineName != "" && x.Name == engineName && isConst
		case *ast.BasicLit:
			v, err := strconv.Unquote(e.Value)
			return e.Kind == token.STRING && err == nil && values[v]
		case *ast.CallExpr: // engine.GameID("magicstars")
			return len(e.Args) == 1 && isGameIDConversion(e.Fun, engineName) && isStringID(e.Args[0], values)
		}
		return false
	}
	var out []string
	at := func(n ast.Node) {
		out = append(out, filepath.ToSlash(path)+":"+strconv.Itoa(fset.Position(n.Pos()).Line))
	}
	ast.Inspect(f, func(n ast.Node) bool {
		switch n := n.(type) {
		case *ast.BinaryExpr:
			if (n.Op == token.EQL || n.Op == token.NEQ) && (isID(n.X) || isID(n.Y)) {
				at(n)
			}
		case *ast.CaseClause:
			for _, e := range n.List {
				if isID(e) {
					at(n)
					break
				}
			}
		}
		return true
	})
	sort.Strings(out)
	return out
}

func isGameIDConversion(fun ast.Expr, engineName string) bool {
	s, ok := fun.(*ast.SelectorExpr)
	if !ok {
		return false
	}
	x, ok := s.X.(*ast.Ident)
	return ok && engineName != "" && x.Name == engineName && s.Sel.Name == "GameID"
}

func isStringID(e ast.Expr, values map[string]bool) bool {
	lit, ok := e.(*ast.BasicLit)
	if !ok || lit.Kind != token.STRING {
		return false
	}
	v, err := strconv.Unquote(lit.Value)
	return err == nil && values[v]
}
