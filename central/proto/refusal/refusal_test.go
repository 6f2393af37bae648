package refusal

import (
	"go/ast"
	"go/parser"
	"go/token"
	"strconv"
	"testing"
)

// Every constant of type Reason declared here has a decision: a reason
// added to the vocabulary without one fails.
func TestEveryReasonHasADecision(t *testing.T) {
	f, err := parser.ParseFile(token.NewFileSet(), "refusal.go", nil, 0)
	if err != nil {
		t.Fatal(err)
	}
	n := 0
	for _, d := range f.Decls {
		g, ok := d.(*ast.GenDecl)
		if !ok || g.Tok != token.CONST {
			continue
		}
		for _, s := range g.Specs {
			v := s.(*ast.ValueSpec)
			if id, ok := v.Type.(*ast.Ident); !ok || id.Name != "Reason" {
				continue
			}
			for i, name := range v.Names {
				lit := v.Values[i].(*ast.BasicLit)
				val, _ := strconv.Unquote(lit.Value)
				n++
				if !Reason(val).Known() {
					t.Errorf("%s (%s) has no decision", name.Name, val)
				}
			}
		}
	}
	if n != len(All()) || n < 40 {
		t.Errorf("%d Reason constants declared, %d reasons with a decision", n, len(All()))
	}
	if Reason("").Round() != Hold || Reason("NEWER").Round() != Hold {
		t.Error("an unknown reason must hold the wager")
	}
}
