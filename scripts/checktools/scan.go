package main

import (
	"bytes"
	"fmt"
	"go/ast"
	"go/parser"
	"go/token"
	"io/fs"
	"os"
	"path"
	"path/filepath"
	"regexp"
	"sort"
	"strconv"
	"strings"

	"mvdan.cc/sh/v3/syntax"
)

// Use is one place that runs a program.
type Use struct {
	Program string
	Where   string // file:line
}

// skipDirs are never scanned: history, build output, the devkit's data and
// installed npm packages (their scripts are not ours).
var skipDirs = map[string]bool{".git": true, "bin": true, "data": true, "node_modules": true}

// Scan lists every external program the repository at root runs: recipe
// lines and $(shell …) of the Makefiles, shell scripts (by shebang or .sh),
// and exec.Command, exec.CommandContext, exec.LookPath and hosttools.Need
// calls with a literal program name in Go files.
func Scan(root string) ([]Use, error) {
	var uses []Use
	makeVars := map[string]string{"GO": "go", "MAKE": "make", "CURDIR": ".", "SHELL": "/bin/bash", "BIN": "bin"}
	var makefiles []string
	err := filepath.WalkDir(root, func(p string, d fs.DirEntry, err error) error {
		if err != nil {
			return err
		}
		rel, _ := filepath.Rel(root, p)
		if d.IsDir() {
			if skipDirs[d.Name()] && p != root {
				return filepath.SkipDir
			}
			return nil
		}
		name := d.Name()
		switch {
		case rel == "Makefile" || (filepath.Dir(rel) == "mk" && strings.HasSuffix(name, ".mk")):
			makefiles = append(makefiles, rel)
		case strings.HasSuffix(name, ".go"):
			u, err := scanGo(root, rel)
			if err != nil {
				return err
			}
			uses = append(uses, u...)
		default:
			b, err := os.ReadFile(p)
			if err != nil {
				return err
			}
			if isShell(name, b) {
				u, err := scanShell(rel, string(b), 1)
				if err != nil {
					return err
				}
				uses = append(uses, u...)
			}
		}
		return nil
	})
	if err != nil {
		return nil, err
	}
	sort.Strings(makefiles)
	// Variables first, over every fragment (the root Makefile includes them all).
	for _, mf := range makefiles {
		b, err := os.ReadFile(filepath.Join(root, mf))
		if err != nil {
			return nil, err
		}
		collectMakeVars(string(b), makeVars)
	}
	for _, mf := range makefiles {
		b, err := os.ReadFile(filepath.Join(root, mf))
		if err != nil {
			return nil, err
		}
		u, err := scanMake(mf, string(b), makeVars)
		if err != nil {
			return nil, err
		}
		uses = append(uses, u...)
	}
	return uses, nil
}

func isShell(name string, b []byte) bool {
	if strings.HasSuffix(name, ".sh") {
		return true
	}
	first, _, _ := bytes.Cut(b, []byte("\n"))
	return shebang.Match(first)
}

var shebang = regexp.MustCompile(`^#!\s*(/usr)?/bin/(env\s+)?(ba)?sh\b`)

// ---- Go ----

func scanGo(root, rel string) ([]Use, error) {
	fset := token.NewFileSet()
	f, err := parser.ParseFile(fset, filepath.Join(root, rel), nil, 0)
	if err != nil {
		return nil, fmt.Errorf("%s: %v", rel, err)
	}
	var uses []Use
	ast.Inspect(f, func(n ast.Node) bool {
		call, ok := n.(*ast.CallExpr)
		if !ok {
			return true
		}
		sel, ok := call.Fun.(*ast.SelectorExpr)
		if !ok {
			return true
		}
		pkg, ok := sel.X.(*ast.Ident)
		if !ok {
			return true
		}
		var args []ast.Expr
		switch pkg.Name + "." + sel.Sel.Name {
		case "exec.Command", "exec.LookPath":
			args = call.Args[:min(1, len(call.Args))]
		case "exec.CommandContext":
			if len(call.Args) > 1 {
				args = call.Args[1:2]
			}
		case "hosttools.Need": // the alternatives after the program are optional
			if len(call.Args) > 1 {
				args = call.Args[1:2]
			}
		}
		for _, a := range args {
			lit, ok := a.(*ast.BasicLit)
			if !ok || lit.Kind != token.STRING {
				continue // a path found at run time, or the binary under test
			}
			s, err := strconv.Unquote(lit.Value)
			if err != nil || strings.Contains(s, "/") && !path.IsAbs(s) {
				continue
			}
			uses = append(uses, Use{path.Base(s), fmt.Sprintf("%s:%d", rel, fset.Position(lit.Pos()).Line)})
		}
		return true
	})
	return uses, nil
}

// ---- shell ----

var toolsComment = regexp.MustCompile(`^\s*#\s*tools:\s*(.*)$`)

// builtins of bash and dash, and shell keywords: never a program.
var builtins = set(`. : [ [[ alias bg break builtin caller cd compgen complete continue declare
	dirs disown echo enable eval exit export false fc fg getopts hash help history jobs kill
	let local logout mapfile popd printf pushd pwd read readarray readonly return set shift
	shopt source suspend test times trap true type typeset ulimit umask unalias unset wait`)

func set(s string) map[string]bool {
	m := map[string]bool{}
	for _, w := range strings.Fields(s) {
		m[w] = true
	}
	return m
}

// wrappers run the program named by a later argument; the value is the set
// of their options that take an argument (skipped with it), and skipFirst
// the number of positional words before the program (timeout's duration,
// chroot's directory).
var wrappers = map[string]struct {
	argOpts   map[string]bool
	skipFirst int
}{
	"exec":     {set("-a"), 0},
	"command":  {nil, 0},
	"sudo":     {set("-u -g -C -D -h -p -U"), 0},
	"timeout":  {set("-s -k --signal --kill-after"), 1},
	"nice":     {set("-n --adjustment"), 0},
	"setsid":   {nil, 0},
	"nohup":    {nil, 0},
	"env":      {set("-u --unset -C --chdir -S"), 0},
	"xvfb-run": {set("-e -f -n -p -s -w --error-file --auth-file --server-num --xauth-protocol --server-args --wait"), 0},
	"chroot":   {set("--userspec --groups"), 1},
	"xargs":    {set("-a -d -E -I -L -n -P -s --arg-file --delimiter --max-args --max-procs"), 0},
}

// scanShell lists the programs a shell script runs; line is the script's
// first line in its file (recipes and $(shell …) start inside a Makefile).
func scanShell(file, src string, line int) ([]Use, error) {
	f, err := syntax.NewParser(syntax.Variant(syntax.LangBash)).Parse(strings.NewReader(src), file)
	if err != nil {
		return nil, fmt.Errorf("%s:%d: %v", file, line, err)
	}
	funcs := map[string]bool{}
	syntax.Walk(f, func(n syntax.Node) bool {
		if fd, ok := n.(*syntax.FuncDecl); ok {
			funcs[fd.Name.Value] = true
		}
		return true
	})
	var uses []Use
	// "# tools: a b": programs the script runs through a variable or an
	// array, which no parser can name.
	for i, l := range strings.Split(src, "\n") {
		if m := toolsComment.FindStringSubmatch(l); m != nil {
			for _, p := range strings.Fields(m[1]) {
				uses = append(uses, Use{p, fmt.Sprintf("%s:%d", file, line+i)})
			}
		}
	}
	var walkErr error
	syntax.Walk(f, func(n syntax.Node) bool {
		call, ok := n.(*syntax.CallExpr)
		if !ok {
			return true
		}
		where := func(w *syntax.Word) string { return fmt.Sprintf("%s:%d", file, line-1+int(w.Pos().Line())) }
		// CC=… and CXX=… before a command name the compiler the go tool runs.
		for _, a := range call.Assigns {
			if a.Name != nil && (a.Name.Value == "CC" || a.Name.Value == "CXX") && a.Value != nil {
				if s, ok := literal(a.Value); ok && s != "" {
					uses = append(uses, Use{path.Base(s), where(a.Value)})
				}
			}
		}
		// scripts/need-tools.sh PROGRAM…: each is a program the caller runs.
		if len(call.Args) > 0 {
			if s, ok := literal(call.Args[0]); ok && strings.HasSuffix(s, "need-tools.sh") || strings.HasSuffix(lastLit(call.Args[0]), "/need-tools.sh") {
				for _, a := range call.Args[1:] {
					if p, ok := literal(a); ok {
						uses = append(uses, Use{p, where(a)})
					}
				}
				return true
			}
		}
		prog, rest, w := commandWord(call.Args, funcs)
		for prog != "" {
			if prog != "command" && prog != "exec" {
				uses = append(uses, Use{prog, where(w)})
			}
			wr, ok := wrappers[prog]
			if !ok {
				break
			}
			rest = wrapperArgs(prog, wr.argOpts, wr.skipFirst, rest)
			prog, rest, w = commandWord(rest, funcs)
		}
		if prog == "" {
			return true
		}
		switch prog {
		case "make":
			// make pi-build PI_CC=aarch64-linux-gnu-gcc: a compiler for a recipe.
			for _, a := range rest {
				if s, ok := literal(a); ok {
					if k, v, ok := strings.Cut(s, "="); ok && v != "" && (k == "CC" || k == "CXX" || strings.HasSuffix(k, "_CC")) {
						uses = append(uses, Use{path.Base(v), where(a)})
					}
				}
			}
		case "sh", "bash", "dash":
			// sh -c 'script': the script is scanned too.
			for i := 0; i+1 < len(rest); i++ {
				if s, ok := literal(rest[i]); ok && s == "-c" {
					if script, ok := literal(rest[i+1]); ok {
						u, err := scanShell(file, script, line-1+int(rest[i+1].Pos().Line()))
						if err != nil {
							walkErr = err
						}
						uses = append(uses, u...)
					}
					break
				}
			}
		case "find":
			for i := 0; i+1 < len(rest); i++ {
				if s, ok := literal(rest[i]); ok && (s == "-exec" || s == "-execdir") {
					if p, _, w := commandWord(rest[i+1:], funcs); p != "" {
						uses = append(uses, Use{p, where(w)})
					}
				}
			}
		}
		return true
	})
	return uses, walkErr
}

// wrapperArgs drops a wrapper's options (and the arguments of those that
// take one), its positional words before the program, and env's VAR=value.
func wrapperArgs(prog string, argOpts map[string]bool, skipFirst int, rest []*syntax.Word) []*syntax.Word {
	for len(rest) > 0 {
		s, ok := literal(rest[0])
		switch {
		case ok && s == "--":
			return rest[1:]
		case ok && strings.HasPrefix(s, "-") && len(s) > 1:
			rest = rest[1:]
			if argOpts[s] && len(rest) > 0 {
				rest = rest[1:]
			}
		case prog == "env" && ok && strings.Contains(s, "="):
			rest = rest[1:]
		case skipFirst > 0:
			rest, skipFirst = rest[1:], skipFirst-1
		default:
			return rest
		}
	}
	return rest
}

// commandWord is the program a simple command runs, seen through wrappers
// (the wrapper itself is a program too: it is returned, and the wrapped
// program is found by walking the rest), with the words after it. A name
// made at run time ("$NFPM", "$here/tool") is not a program of the table.
func commandWord(args []*syntax.Word, funcs map[string]bool) (string, []*syntax.Word, *syntax.Word) {
	for len(args) > 0 {
		s, ok := literal(args[0])
		if !ok {
			// $sudo: empty as root, sudo otherwise.
			if pe := singleParam(args[0]); pe == "sudo" {
				args = args[1:]
				continue
			}
			return "", nil, nil
		}
		if builtins[s] || funcs[s] {
			if s == "command" || s == "exec" {
				break
			}
			return "", nil, nil
		}
		break
	}
	if len(args) == 0 {
		return "", nil, nil
	}
	s, _ := literal(args[0])
	if strings.Contains(s, "/") && !path.IsAbs(s) {
		return "", nil, nil // the repository's own script or binary
	}
	return path.Base(s), args[1:], args[0]
}

// literal is a word's text when it has no expansion.
func literal(w *syntax.Word) (string, bool) {
	var b strings.Builder
	for _, p := range w.Parts {
		switch p := p.(type) {
		case *syntax.Lit:
			b.WriteString(p.Value)
		case *syntax.SglQuoted:
			b.WriteString(p.Value)
		case *syntax.DblQuoted:
			for _, q := range p.Parts {
				l, ok := q.(*syntax.Lit)
				if !ok {
					return "", false
				}
				b.WriteString(l.Value)
			}
		default:
			return "", false
		}
	}
	return b.String(), true
}

// lastLit is the literal tail of a word ("$here/../scripts/x.sh" ends in
// "/../scripts/x.sh").
func lastLit(w *syntax.Word) string {
	if n := len(w.Parts); n > 0 {
		switch p := w.Parts[n-1].(type) {
		case *syntax.Lit:
			return p.Value
		case *syntax.DblQuoted:
			if m := len(p.Parts); m > 0 {
				if l, ok := p.Parts[m-1].(*syntax.Lit); ok {
					return l.Value
				}
			}
		}
	}
	return ""
}

func singleParam(w *syntax.Word) string {
	if len(w.Parts) == 1 {
		if pe, ok := w.Parts[0].(*syntax.ParamExp); ok && pe.Param != nil {
			return pe.Param.Value
		}
	}
	return ""
}

// ---- make ----

var assignRe = regexp.MustCompile(`^([A-Za-z_][A-Za-z0-9_]*)\s*(:=|\?=|\+=|=)\s*(.*)$`)

func collectMakeVars(src string, vars map[string]string) {
	for _, l := range joinContinuations(src) {
		if strings.HasPrefix(l.text, "\t") {
			continue
		}
		t := strings.TrimPrefix(strings.TrimSpace(l.text), "export ")
		m := assignRe.FindStringSubmatch(t)
		if m == nil {
			continue
		}
		name, op, val := m[1], m[2], stripMakeComment(m[3])
		switch op {
		case "?=":
			if _, ok := vars[name]; !ok {
				vars[name] = val
			}
		case "+=":
			vars[name] = strings.TrimSpace(vars[name] + " " + val)
		default:
			vars[name] = val
		}
	}
}

func stripMakeComment(s string) string {
	if i := strings.Index(s, "#"); i >= 0 && !strings.Contains(s[:i], "\\") {
		s = s[:i]
	}
	return strings.TrimSpace(s)
}

type makeLine struct {
	text string
	line int
}

func joinContinuations(src string) []makeLine {
	var out []makeLine
	lines := strings.Split(src, "\n")
	for i := 0; i < len(lines); i++ {
		start, text := i+1, lines[i]
		for strings.HasSuffix(text, "\\") && i+1 < len(lines) {
			i++
			text = strings.TrimSuffix(text, "\\") + " " + strings.TrimPrefix(lines[i], "\t")
		}
		out = append(out, makeLine{text, start})
	}
	return out
}

// scanMake scans every recipe line (tab-indented) and every $(shell …).
func scanMake(file, src string, vars map[string]string) ([]Use, error) {
	var uses []Use
	for _, l := range joinContinuations(src) {
		text := l.text
		var shells []string
		if strings.HasPrefix(text, "\t") {
			cmd := strings.TrimLeft(strings.TrimPrefix(text, "\t"), "@-+ ")
			expanded := expandMake(cmd, vars, &shells, 0)
			u, err := scanShell(file, expanded, l.line)
			if err != nil {
				return nil, err
			}
			uses = append(uses, u...)
		} else {
			expandMake(text, vars, &shells, 0)
		}
		for _, s := range shells {
			u, err := scanShell(file, s, l.line)
			if err != nil {
				return nil, err
			}
			uses = append(uses, u...)
		}
	}
	return uses, nil
}

// expandMake expands $(VAR) and ${VAR} from vars ($$ is a shell $); a make
// function becomes the shell expansion $MAKEFN, so that whatever it stands
// for is never taken for a program name; the text of every $(shell …) is
// appended to shells.
func expandMake(s string, vars map[string]string, shells *[]string, depth int) string {
	if depth > 20 {
		return s
	}
	var b strings.Builder
	for i := 0; i < len(s); i++ {
		if s[i] != '$' || i+1 >= len(s) {
			b.WriteByte(s[i])
			continue
		}
		switch c := s[i+1]; c {
		case '$':
			b.WriteByte('$')
			i++
		case '(', '{':
			closeC := byte(')')
			if c == '{' {
				closeC = '}'
			}
			j, depthP := i+2, 1
			for ; j < len(s) && depthP > 0; j++ {
				switch s[j] {
				case c:
					depthP++
				case closeC:
					depthP--
				}
			}
			inner := s[i+2 : j-1]
			if name, args, isFn := strings.Cut(inner, " "); isFn {
				if name == "shell" {
					*shells = append(*shells, expandMake(args, vars, shells, depth+1))
				}
				b.WriteString("$MAKEFN")
			} else if v, ok := vars[inner]; ok {
				b.WriteString(expandMake(v, vars, shells, depth+1))
			}
			i = j - 1
		default:
			// $@, $<, $*: automatic variables.
			b.WriteString("$MAKEFN")
			i++
		}
	}
	return b.String()
}
