package main

import (
	"fmt"
	"go/ast"
	"go/parser"
	"go/token"
	"io/fs"
	"os"
	"path/filepath"
	"sort"
	"strconv"
	"strings"
)

// Sleep is one call to time.Sleep.
type Sleep struct {
	Path string
	Line int
	Why  string // why it is accepted (empty when it is not)
}

// Offence is the line that lists an offending sleep.
func (s Sleep) Offence() string {
	return fmt.Sprintf("%s:%d: time.Sleep outside a polling loop (use poll.Until, or mark it // sleep-ok: why)", s.Path, s.Line)
}

// Report is what a check found.
type Report struct {
	Files     int     // test files read
	Allowed   []Sleep // in a deadline loop or marked sleep-ok
	Offending []Sleep
}

// skipDirs are never scanned: history, fixtures, installed packages.
var skipDirs = map[string]bool{".git": true, "testdata": true, "node_modules": true, "vendor": true}

// CheckTree checks every *_test.go under root; paths are relative to root.
func CheckTree(root string) (Report, error) {
	var files []string
	err := filepath.WalkDir(root, func(p string, d fs.DirEntry, err error) error {
		if err != nil {
			return err
		}
		if d.IsDir() {
			if p != root && skipDirs[d.Name()] {
				return filepath.SkipDir
			}
			return nil
		}
		if strings.HasSuffix(d.Name(), "_test.go") {
			files = append(files, p)
		}
		return nil
	})
	if err != nil {
		return Report{}, err
	}
	rep, err := CheckFiles(files)
	for _, l := range [][]Sleep{rep.Allowed, rep.Offending} {
		for i := range l {
			if rel, err := filepath.Rel(root, l[i].Path); err == nil {
				l[i].Path = filepath.ToSlash(rel)
			}
		}
	}
	return rep, err
}

// CheckFiles checks the named Go files, whatever their names.
func CheckFiles(files []string) (Report, error) {
	var rep Report
	fset := token.NewFileSet()
	for _, name := range files {
		src, err := os.ReadFile(name)
		if err != nil {
			return rep, err
		}
		// Object resolution stays on: it tells a package name from a
		// local variable of the same name (id.Obj != nil).
		f, err := parser.ParseFile(fset, name, src, parser.ParseComments)
		if err != nil {
			return rep, err
		}
		rep.Files++
		for _, s := range checkFile(fset, f, src) {
			s.Path = name
			if s.Why != "" {
				rep.Allowed = append(rep.Allowed, s)
			} else {
				rep.Offending = append(rep.Offending, s)
			}
		}
	}
	for _, l := range [][]Sleep{rep.Allowed, rep.Offending} {
		sort.SliceStable(l, func(i, j int) bool {
			if l[i].Path != l[j].Path {
				return l[i].Path < l[j].Path
			}
			return l[i].Line < l[j].Line
		})
	}
	return rep, nil
}

// names are a file's import names for the packages the check knows.
type names struct {
	time, poll       string // "" when not imported
	timeDot, pollDot bool   // imported with "."
}

func importNames(f *ast.File) names {
	var n names
	for _, spec := range f.Imports {
		p, err := strconv.Unquote(spec.Path.Value)
		if err != nil {
			continue
		}
		var name, def string
		var dot *bool
		switch {
		case p == "time":
			def, dot = "time", &n.timeDot
		case p == "internal/poll" || strings.HasSuffix(p, "/internal/poll"):
			def, dot = "poll", &n.pollDot
		default:
			continue
		}
		name = def
		if spec.Name != nil {
			name = spec.Name.Name
		}
		switch name {
		case "_":
			continue
		case ".":
			*dot = true
			continue
		}
		if def == "time" {
			n.time = name
		} else {
			n.poll = name
		}
	}
	return n
}

// pkgFunc reports whether call calls function fn of the package imported
// as name (or dot-imported when dot), and not a local variable's method.
func pkgFunc(call *ast.CallExpr, name string, dot bool, fns ...string) bool {
	switch fun := call.Fun.(type) {
	case *ast.SelectorExpr:
		id, ok := fun.X.(*ast.Ident)
		if !ok || name == "" || id.Name != name || id.Obj != nil {
			return false
		}
		for _, fn := range fns {
			if fun.Sel.Name == fn {
				return true
			}
		}
	case *ast.Ident:
		if !dot || fun.Obj != nil {
			return false
		}
		for _, fn := range fns {
			if fun.Name == fn {
				return true
			}
		}
	}
	return false
}

func checkFile(fset *token.FileSet, f *ast.File, src []byte) []Sleep {
	n := importNames(f)
	if n.time == "" && !n.timeDot {
		return nil
	}
	allow := allowComments(fset, f, src)
	var out []Sleep
	var stack []ast.Node
	ast.Inspect(f, func(node ast.Node) bool {
		if node == nil {
			stack = stack[:len(stack)-1]
			return true
		}
		stack = append(stack, node)
		call, ok := node.(*ast.CallExpr)
		if !ok || !pkgFunc(call, n.time, n.timeDot, "Sleep") {
			return true
		}
		line := fset.Position(call.Pos()).Line
		s := Sleep{Line: line}
		reason, marked := allow.same[line]
		if !marked {
			reason, marked = allow.above[line-1]
		}
		switch {
		case marked && reason != "":
			s.Why = "sleep-ok: " + reason
		case marked:
			// "sleep-ok:" without a reason accepts nothing, not even a loop.
		default:
			if loop := innermostLoop(stack[:len(stack)-1]); loop != nil {
				if what := deadlineIn(loop, n); what != "" {
					s.Why = "in a polling loop (" + what + ", line " + strconv.Itoa(fset.Position(loop.Pos()).Line) + ")"
				}
			}
		}
		out = append(out, s)
		return true
	})
	return out
}

// innermostLoop is the nearest for or range statement among the ancestors,
// not looking past the nearest function literal or declaration.
func innermostLoop(ancestors []ast.Node) ast.Node {
	for i := len(ancestors) - 1; i >= 0; i-- {
		switch a := ancestors[i].(type) {
		case *ast.ForStmt, *ast.RangeStmt:
			return a
		case *ast.FuncLit, *ast.FuncDecl:
			return nil
		}
	}
	return nil
}

// deadlineIn names the first deadline the loop mentions, or "": in its
// init, condition, post statement or body, not inside a function literal or
// a nested loop (theirs are not its own).
func deadlineIn(loop ast.Node, n names) string {
	var what string
	ast.Inspect(loop, func(node ast.Node) bool {
		if what != "" {
			return false
		}
		switch x := node.(type) {
		case *ast.FuncLit:
			return false // a closure's deadline is not the loop's
		case *ast.ForStmt, *ast.RangeStmt:
			return node == loop // nor is a nested loop's
		case *ast.Ident:
			if strings.Contains(strings.ToLower(x.Name), "deadline") {
				what = x.Name
			}
		case *ast.CallExpr:
			switch {
			case pkgFunc(x, n.time, n.timeDot, "Now", "Since", "Until"):
				what = "time." + funName(x)
			case isPollCall(x, n):
				what = "poll." + funName(x)
			}
		case *ast.SelectStmt:
			for _, c := range x.Body.List {
				cc, ok := c.(*ast.CommClause)
				if !ok || cc.Comm == nil {
					continue
				}
				if ch := received(cc.Comm); ch != nil && timeoutChan(ch, n, 0) {
					what = "select on a timeout"
					return false
				}
			}
		}
		return true
	})
	return what
}

func funName(call *ast.CallExpr) string {
	switch f := call.Fun.(type) {
	case *ast.SelectorExpr:
		return f.Sel.Name
	case *ast.Ident:
		return f.Name
	}
	return "?"
}

func isPollCall(call *ast.CallExpr, n names) bool {
	switch f := call.Fun.(type) {
	case *ast.SelectorExpr:
		id, ok := f.X.(*ast.Ident)
		return ok && n.poll != "" && id.Name == n.poll && id.Obj == nil
	case *ast.Ident:
		return n.pollDot && f.Obj == nil && (f.Name == "Until" || f.Name == "After" || f.Name == "Scaled")
	}
	return false
}

// received is the channel a select case receives from (<-ch, v := <-ch,
// v, ok = <-ch), or nil for a send.
func received(comm ast.Stmt) ast.Expr {
	var e ast.Expr
	switch s := comm.(type) {
	case *ast.ExprStmt:
		e = s.X
	case *ast.AssignStmt:
		if len(s.Rhs) == 1 {
			e = s.Rhs[0]
		}
	}
	if u, ok := e.(*ast.UnaryExpr); ok && u.Op == token.ARROW {
		return u.X
	}
	return nil
}

// timeoutChan reports whether ch is a timeout: time.After, time.Tick,
// poll.After, something's Done(), a time.NewTimer(…).C, or a variable
// assigned one of those (followed through depth assignments).
func timeoutChan(ch ast.Expr, n names, depth int) bool {
	if depth > 4 {
		return false
	}
	switch x := ch.(type) {
	case *ast.ParenExpr:
		return timeoutChan(x.X, n, depth)
	case *ast.CallExpr:
		if pkgFunc(x, n.time, n.timeDot, "After", "Tick", "NewTimer") {
			return true
		}
		if n.poll != "" || n.pollDot {
			if isPollCall(x, n) && funName(x) == "After" {
				return true
			}
		}
		if sel, ok := x.Fun.(*ast.SelectorExpr); ok && sel.Sel.Name == "Done" && len(x.Args) == 0 {
			return true
		}
	case *ast.SelectorExpr:
		if x.Sel.Name == "C" {
			return timeoutChan(x.X, n, depth+1) // timer.C
		}
	case *ast.Ident:
		if x.Obj == nil {
			return false
		}
		switch d := x.Obj.Decl.(type) {
		case *ast.AssignStmt:
			for i, l := range d.Lhs {
				if id, ok := l.(*ast.Ident); ok && id.Name == x.Name && len(d.Rhs) == len(d.Lhs) {
					return timeoutChan(d.Rhs[i], n, depth+1)
				}
			}
		case *ast.ValueSpec:
			for i, id := range d.Names {
				if id.Name == x.Name && i < len(d.Values) {
					return timeoutChan(d.Values[i], n, depth+1)
				}
			}
		}
	}
	return false
}

// allowance holds a file's "sleep-ok:" comments by line: same[L] for a
// comment on line L (after code or alone), above[L] for a block of comment
// lines ending on line L that holds one (the reason runs from "sleep-ok:" to
// the block's end). A reason is "" when none is given.
type allowance struct{ same, above map[int]string }

func allowComments(fset *token.FileSet, f *ast.File, src []byte) allowance {
	a := allowance{same: map[int]string{}, above: map[int]string{}}
	lines := strings.Split(string(src), "\n")
	ownLine := func(pos token.Pos) bool {
		p := fset.Position(pos)
		return p.Line-1 < len(lines) && p.Column-1 <= len(lines[p.Line-1]) &&
			strings.TrimSpace(lines[p.Line-1][:p.Column-1]) == ""
	}
	for _, g := range f.Comments {
		for i, c := range g.List {
			text, ok := strings.CutPrefix(c.Text, "//")
			if !ok {
				continue
			}
			reason, ok := strings.CutPrefix(strings.TrimSpace(text), "sleep-ok:")
			if !ok {
				continue
			}
			r := strings.TrimSpace(reason)
			a.same[fset.Position(c.Pos()).Line] = r
			if !ownLine(c.Pos()) {
				continue // after code: it speaks for its own line only
			}
			for _, more := range g.List[i+1:] {
				if t, ok := strings.CutPrefix(more.Text, "//"); ok {
					r = strings.TrimSpace(r + " " + strings.TrimSpace(t))
				}
			}
			a.above[fset.Position(g.End()).Line] = r
		}
	}
	return a
}
