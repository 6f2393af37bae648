package server_test

import (
	"go/ast"
	"go/parser"
	"go/token"
	"path/filepath"
	"strings"
	"testing"
)

// maxServerMethods keeps Server the adapter it is: the Central service's
// calls, its life cycle and the accessors of its services. A behaviour
// added as another method of Server belongs to a service.
const maxServerMethods = 30

func TestServerStaysAnAdapter(t *testing.T) {
	files, err := filepath.Glob("*.go")
	if err != nil {
		t.Fatal(err)
	}
	var methods []string
	for _, name := range files {
		if strings.HasSuffix(name, "_test.go") {
			continue
		}
		f, err := parser.ParseFile(token.NewFileSet(), name, nil, 0)
		if err != nil {
			t.Fatal(err)
		}
		for _, d := range f.Decls {
			fn, ok := d.(*ast.FuncDecl)
			if !ok || fn.Recv == nil {
				continue
			}
			if star, ok := fn.Recv.List[0].Type.(*ast.StarExpr); ok {
				if id, ok := star.X.(*ast.Ident); ok && id.Name == "Server" {
					methods = append(methods, name+": "+fn.Name.Name)
				}
			}
		}
	}
	if len(methods) > maxServerMethods {
		t.Errorf("Server has %d methods, at most %d:\n%s", len(methods), maxServerMethods, strings.Join(methods, "\n"))
	}
	if len(methods) < 20 {
		t.Errorf("%d methods of Server found: the source was not read", len(methods))
	}
}
