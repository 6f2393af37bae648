package cabinet

import (
	"bufio"
	"bytes"
	"fmt"
	"go/ast"
	"go/importer"
	"go/parser"
	"go/token"
	"go/types"
	"io"
	"os"
	"os/exec"
	"path/filepath"
	"slices"
	"strings"
	"sync"
	"testing"
)

// partFiles names, for each part's types, the only files that may write
// their fields. A part keeps its invariants in its own methods; another
// file asks it through them (the Cabinet composes the parts), so a rule
// of a part is read in one place. Every struct-typed field of Cabinet must
// be a part listed here, so a new part is given its files when it is added.
var partFiles = map[string][]string{
	// the round and what of it is on screen, Auto, the bets; the status
	// line and the count-up
	"playState":  playFiles,
	"roundState": playFiles,
	"outcomeAsk": playFiles,
	"riskSteps":  playFiles,
	"afterRound": playFiles,
	// what stops play (read through priority.go's table)
	"condState": {"conditions.go"},
	"tilt":      {"conditions.go"},
	// the attendant's side of the lockups
	"handpayState": {"handpay.go"},
	"pinEntry":     {"handpay.go"},
	"handpayPrint": {"handpay.go"},
	// the keys' pages
	"menuState": {"menus.go"},
	// the acceptor and its escrow; the voucher and the printer
	"moneyInState": {"moneyin.go"},
	"escrowState":  {"moneyin.go"},
	"cashOutState": {"cashout.go"},
	"cashoutState": {"cashout.go"},
	// the player card and its session; the game menu and the language
	"playerState": {"player.go"},
	"playerMenu":  {"gamemenu.go"},
	// the information pages, the speaker
	"infoState":  {"info.go"},
	"soundState": {"info.go"},
	// test mode and its output tests; the technician's actions' results
	"testState":        {"testmode.go", "testlights.go"},
	"testOutputsState": {"testlights.go"},
	"techState":        {"techpages.go", "configpage.go", "auditticket.go", "testlights.go"},
	// the self-tests; the last power-down; the snapshot
	"selfTestState": {"selftest.go"},
	"offState":      {"poweroff.go"},
	"publisher":     {"snapshot.go"},
	// the loop's plumbing
	"loop": {"cabinet.go"},
	// read-only: what printed documents say, the outcomes' verifier
	"paper":    {"paper.go"},
	"outcomes": {"recovery.go"},
}

var playFiles = []string{"play.go", "risk.go", "messages.go"}

// owns: file is one of part's, or the test file of one (a part's own
// tests may build its state).
func owns(part, file string) bool {
	fs := partFiles[part]
	return slices.Contains(fs, file) || slices.Contains(fs, strings.TrimSuffix(file, "_test.go")+".go")
}

// partWrites is the scan below, once: it type-checks the package.
var partWrites = sync.OnceValues(func() ([]fieldWrite, error) { return scanWrites(".", nil) })

// TestPartsWriteOnlyTheirOwnFields fails for each write of a part's field
// (an assignment, ++/--, a map element set, delete or clear, its address
// taken, a pointer method called on it) from a file that is not the part's.
func TestPartsWriteOnlyTheirOwnFields(t *testing.T) {
	ws, err := partWrites()
	if err != nil {
		t.Fatal(err)
	}
	if len(ws) < 100 {
		t.Fatalf("only %d writes of parts' fields found: the scan is broken", len(ws))
	}
	for _, w := range ws {
		if !owns(w.part, w.file) {
			t.Errorf("%s: writes %s.%s; only %s may", w.pos, w.part, w.field, strings.Join(partFiles[w.part], ", "))
		}
	}
}

// TestCabinetFieldsArePartsListed: each field of Cabinet whose type is a
// struct of this package is a part with its files in partFiles.
func TestCabinetFieldsArePartsListed(t *testing.T) {
	names, err := filepath.Glob("*.go")
	if err != nil {
		t.Fatal(err)
	}
	structs := map[string]*ast.StructType{}
	for _, n := range names {
		if strings.HasSuffix(n, "_test.go") {
			continue
		}
		f, err := parser.ParseFile(token.NewFileSet(), n, nil, 0)
		if err != nil {
			t.Fatal(err)
		}
		ast.Inspect(f, func(n ast.Node) bool {
			if ts, ok := n.(*ast.TypeSpec); ok {
				if st, ok := ts.Type.(*ast.StructType); ok {
					structs[ts.Name.Name] = st
				}
			}
			return true
		})
	}
	cab := structs["Cabinet"]
	if cab == nil {
		t.Fatal("no Cabinet struct found")
	}
	parts := 0
	for _, f := range cab.Fields.List {
		typ := f.Type
		if s, ok := typ.(*ast.StarExpr); ok {
			typ = s.X
		}
		id, ok := typ.(*ast.Ident)
		if !ok || structs[id.Name] == nil || id.Name == "Config" { // what it is built from, not a part
			continue
		}
		parts++
		if partFiles[id.Name] == nil {
			t.Errorf("Cabinet's field %s is a %s: list its files in partFiles", f.Names[0].Name, id.Name)
		}
	}
	if parts < 10 {
		t.Fatalf("only %d parts found in Cabinet: the scan is broken", parts)
	}
}

// TestPartWriteScanSeesAPlantedWrite: a write of a part's field planted in
// another file is found, so the test above can fail.
func TestPartWriteScanSeesAPlantedWrite(t *testing.T) {
	planted := map[string]string{
		"planted_auto.go":   "package cabinet\nfunc (c *Cabinet) plantedAuto() { c.play.auto = false }\n",
		"planted_inc.go":    "package cabinet\nfunc (c *Cabinet) plantedInc() { c.play.round.step++ }\n",
		"planted_addr.go":   "package cabinet\nfunc (c *Cabinet) plantedAddr() { a := &c.play.after; _ = a }\n",
		"planted_op.go":     "package cabinet\nfunc (c *Cabinet) plantedOp(r *roundState) { r.paid += 1 }\n",
		"planted_map.go":    "package cabinet\nfunc (c *Cabinet) plantedMap() { c.play.bets[\"x\"] = 1 }\n",
		"planted_delete.go": "package cabinet\nfunc (c *Cabinet) plantedDelete() { delete(c.play.bets, \"x\") }\n",
	}
	ws, err := scanWrites(".", planted)
	if err != nil {
		t.Fatal(err)
	}
	found := map[string]bool{}
	for _, w := range ws {
		if planted[w.file] != "" && !owns(w.part, w.file) {
			found[w.file] = true
		}
	}
	for f := range planted {
		if !found[f] {
			t.Errorf("the write planted in %s was not found", f)
		}
	}
}

// fieldWrite is one write of a part's field.
type fieldWrite struct {
	pos   token.Position
	file  string // base name
	part  string // the struct type whose field is written
	field string
}

// scanWrites type-checks the package in dir (its test files included, so
// a test cannot write a part's field either), with extra files added, and
// lists every write of a field of a type in partFiles.
func scanWrites(dir string, extra map[string]string) ([]fieldWrite, error) {
	fset := token.NewFileSet()
	names, err := filepath.Glob(filepath.Join(dir, "*.go"))
	if err != nil {
		return nil, err
	}
	var files []*ast.File
	for _, n := range names {
		f, err := parser.ParseFile(fset, n, nil, 0)
		if err != nil {
			return nil, err
		}
		if f.Name.Name != "cabinet" { // an external test package
			continue
		}
		files = append(files, f)
	}
	for n, src := range extra {
		f, err := parser.ParseFile(fset, n, src, 0)
		if err != nil {
			return nil, err
		}
		files = append(files, f)
	}
	imp, err := exportImporter(fset, dir)
	if err != nil {
		return nil, err
	}
	info := &types.Info{Types: map[ast.Expr]types.TypeAndValue{}, Selections: map[*ast.SelectorExpr]*types.Selection{}, Uses: map[*ast.Ident]types.Object{}}
	conf := types.Config{Importer: imp}
	if _, err := conf.Check("github.com/polaris-vlt/polaris/firmware/cabinet", fset, files, info); err != nil {
		return nil, err
	}
	var out []fieldWrite
	for _, f := range files {
		file := filepath.Base(fset.Position(f.Pos()).Filename)
		written := func(e ast.Expr) {
			for _, w := range writtenFields(info, e) {
				out = append(out, fieldWrite{pos: fset.Position(e.Pos()), file: file, part: w[0], field: w[1]})
			}
		}
		ast.Inspect(f, func(n ast.Node) bool {
			switch n := n.(type) {
			case *ast.AssignStmt:
				if n.Tok != token.DEFINE {
					for _, l := range n.Lhs {
						written(l)
					}
				}
			case *ast.IncDecStmt:
				written(n.X)
			case *ast.UnaryExpr:
				if n.Op == token.AND {
					written(n.X)
				}
			case *ast.CallExpr:
				if id, ok := ast.Unparen(n.Fun).(*ast.Ident); ok && (id.Name == "delete" || id.Name == "clear") && len(n.Args) > 0 {
					if _, builtin := info.Uses[id].(*types.Builtin); builtin {
						written(n.Args[0])
					}
				}
				// A method with a pointer receiver called on a field's
				// value takes the field's address.
				if s, ok := ast.Unparen(n.Fun).(*ast.SelectorExpr); ok {
					if sel := info.Selections[s]; sel != nil && sel.Kind() == types.MethodVal {
						_, recvPtr := sel.Obj().(*types.Func).Signature().Recv().Type().(*types.Pointer)
						_, onPtr := info.Types[s.X].Type.(*types.Pointer)
						if recvPtr && !onPtr {
							written(s.X)
						}
					}
				}
			}
			return true
		})
	}
	return out, nil
}

// writtenFields are the parts' fields a write to e changes: the field it
// names and, through fields held by value, the fields that contain it
// (c.gameMenu.cursor = 0 writes playerMenu.cursor and menuState.player);
// an element of a map or slice field writes the field.
func writtenFields(info *types.Info, e ast.Expr) [][2]string {
	var out [][2]string
	for {
		switch x := ast.Unparen(e).(type) {
		case *ast.IndexExpr:
			e = x.X
			continue
		case *ast.SelectorExpr:
			sel := info.Selections[x]
			if sel == nil || sel.Kind() != types.FieldVal {
				return out
			}
			if part := namedStruct(sel.Recv()); partFiles[part] != nil {
				out = append(out, [2]string{part, sel.Obj().Name()})
			}
			if _, ptr := info.Types[x.X].Type.(*types.Pointer); ptr {
				return out // through a pointer: the struct that holds it is not written
			}
			e = x.X
			continue
		}
		return out
	}
}

// namedStruct is the name of t's (or *t's) type in this package, "" if none.
func namedStruct(t types.Type) string {
	if p, ok := t.(*types.Pointer); ok {
		t = p.Elem()
	}
	if n, ok := t.(*types.Named); ok && n.Obj().Pkg() != nil && n.Obj().Pkg().Name() == "cabinet" {
		return n.Obj().Name()
	}
	return ""
}

// exportImporter imports the package's dependencies from the compiler's
// export data, which go list builds (and caches) for them.
func exportImporter(fset *token.FileSet, dir string) (types.Importer, error) {
	cmd := exec.Command("go", "list", "-deps", "-test", "-export", "-f", "{{.ImportPath}} {{.Export}}", ".")
	cmd.Dir = dir
	var stderr bytes.Buffer
	cmd.Stderr = &stderr
	out, err := cmd.Output()
	if err != nil {
		return nil, fmt.Errorf("go list: %v: %s", err, stderr.String())
	}
	export := map[string]string{}
	sc := bufio.NewScanner(bytes.NewReader(out))
	for sc.Scan() {
		if path, file, ok := strings.Cut(sc.Text(), " "); ok && file != "" {
			export[path] = file
		}
	}
	return importer.ForCompiler(fset, "gc", func(path string) (io.ReadCloser, error) {
		f, ok := export[path]
		if !ok {
			return nil, fmt.Errorf("no export data for %s", path)
		}
		return os.Open(f)
	}), nil
}
