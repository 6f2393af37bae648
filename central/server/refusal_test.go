package server_test

import (
	"go/ast"
	"go/parser"
	"go/token"
	"path/filepath"
	"strings"
	"testing"

	"github.com/polaris-vlt/polaris/central/proto/refusal"
)

// The client retries a call answered UNAVAILABLE and decides on any other
// code from the reason (refusal.Decision): a reason whose decision is
// Retry must be sent UNAVAILABLE, every other one must not be, or the
// cabinet would retry a refusal, or take a transient failure for one. Read
// from the server's source: every refuse(code, reason, …) call.
func TestRefusalCodesMatchTheirDecision(t *testing.T) {
	files, err := filepath.Glob("*.go")
	if err != nil {
		t.Fatal(err)
	}
	fset := token.NewFileSet()
	calls := 0
	for _, name := range files {
		if strings.HasSuffix(name, "_test.go") {
			continue
		}
		f, err := parser.ParseFile(fset, name, nil, 0)
		if err != nil {
			t.Fatal(err)
		}
		ast.Inspect(f, func(n ast.Node) bool {
			call, ok := n.(*ast.CallExpr)
			if !ok || len(call.Args) < 2 {
				return true
			}
			if id, ok := call.Fun.(*ast.Ident); !ok || id.Name != "refuse" {
				return true
			}
			code, ok1 := call.Args[0].(*ast.SelectorExpr)
			reason, ok2 := call.Args[1].(*ast.SelectorExpr)
			if !ok1 || !ok2 || reason.X.(*ast.Ident).Name != "refusal" {
				return true // a reason passed on (the players' refusal): checked where it is made
			}
			calls++
			r := reasonNamed(t, reason.Sel.Name)
			if retry, unavailable := r.Round() == refusal.Retry, code.Sel.Name == "Unavailable"; retry != unavailable {
				t.Errorf("%s: %s sent as %s, its decision is %v", fset.Position(call.Pos()), r, code.Sel.Name, r.Round())
			}
			return true
		})
	}
	if calls < 30 {
		t.Fatalf("%d refuse calls found: the source was not read", calls)
	}
}

// reasonNamed is the reason of the refusal package's constant name.
func reasonNamed(t *testing.T, name string) refusal.Reason {
	t.Helper()
	f, err := parser.ParseFile(token.NewFileSet(), filepath.Join("..", "proto", "refusal", "refusal.go"), nil, 0)
	if err != nil {
		t.Fatal(err)
	}
	if obj := f.Scope.Lookup(name); obj != nil {
		if v, ok := obj.Decl.(*ast.ValueSpec); ok {
			for i, n := range v.Names {
				if n.Name == name {
					lit := v.Values[i].(*ast.BasicLit)
					return refusal.Reason(strings.Trim(lit.Value, `"`))
				}
			}
		}
	}
	t.Fatalf("refusal.%s is not a constant of the refusal package", name)
	return ""
}
