package board

import (
	"bytes"
	"embed"
	"errors"
	"fmt"
	"io/fs"
	"os"
	"path/filepath"
	"sort"
	"strings"

	"github.com/pelletier/go-toml/v2"
	"github.com/pelletier/go-toml/v2/unstable"
)

//go:embed profiles/*.toml
var embedded embed.FS

// Problem is one thing wrong with a profile, located by line and key path.
type Problem struct {
	Line int    // 1-based; 0 when the key is absent and has no enclosing table
	Key  string // dotted key path, e.g. gpio.inputs.stop.pin
	Msg  string
}

// Error lists every problem found in one profile. Loading refuses the
// whole profile; nothing of it is used.
type Error struct {
	Source   string // file name
	Problems []Problem
}

func (e *Error) Error() string {
	var b strings.Builder
	for i, p := range e.Problems {
		if i > 0 {
			b.WriteByte('\n')
		}
		b.WriteString("board profile ")
		b.WriteString(e.Source)
		if p.Line > 0 {
			fmt.Fprintf(&b, ":%d", p.Line)
		}
		b.WriteString(": ")
		if p.Key != "" {
			b.WriteString(p.Key)
			b.WriteString(": ")
		}
		b.WriteString(p.Msg)
	}
	return b.String()
}

// Names lists the built-in profiles.
func Names() []string {
	ents, _ := fs.ReadDir(embedded, "profiles")
	var out []string
	for _, e := range ents {
		out = append(out, strings.TrimSuffix(e.Name(), ".toml"))
	}
	sort.Strings(out)
	return out
}

// Load parses a built-in profile by name ("devkit", "rpi-cabinet").
func Load(name string) (*Profile, error) {
	data, err := embedded.ReadFile("profiles/" + name + ".toml")
	if err != nil {
		return nil, fmt.Errorf("board: no built-in profile %q (have %s)", name, strings.Join(Names(), ", "))
	}
	return Parse(name+".toml", data)
}

// LoadFile parses a profile from disk.
func LoadFile(path string) (*Profile, error) {
	data, err := os.ReadFile(path)
	if err != nil {
		return nil, fmt.Errorf("board: %w", err)
	}
	return Parse(filepath.Base(path), data)
}

// Parse decodes and checks a profile. source names it in errors. Unknown
// keys, missing or duplicate pins, unknown protocols and malformed TOML are
// refused with an *Error naming the line and key of each problem.
func Parse(source string, data []byte) (*Profile, error) {
	var p Profile
	dec := toml.NewDecoder(bytes.NewReader(data)).DisallowUnknownFields()
	if err := dec.Decode(&p); err != nil {
		return nil, decodeError(source, err, data)
	}
	p.source = source
	idx := indexKeys(data)
	v := &validator{idx: idx}
	v.check(&p)
	if len(v.problems) > 0 {
		return nil, &Error{Source: source, Problems: v.problems}
	}
	return &p, nil
}

func decodeError(source string, err error, data []byte) error {
	var idx keyIndex
	if unstableParses(data) {
		idx = indexKeys(data)
	}
	var strict *toml.StrictMissingError
	if errors.As(err, &strict) {
		e := &Error{Source: source}
		for _, de := range strict.Errors {
			row, _ := de.Position()
			e.Problems = append(e.Problems, Problem{Line: row, Key: idx.fullKey(row, de.Key()), Msg: "unknown key"})
		}
		return e
	}
	var de *toml.DecodeError
	if errors.As(err, &de) {
		row, _ := de.Position()
		msg := strings.TrimPrefix(de.Error(), "toml: ")
		return &Error{Source: source, Problems: []Problem{{Line: row, Key: idx.fullKey(row, de.Key()), Msg: msg}}}
	}
	return &Error{Source: source, Problems: []Problem{{Msg: err.Error()}}}
}

func unstableParses(data []byte) bool {
	var p unstable.Parser
	p.Reset(data)
	for p.NextExpression() {
	}
	return p.Error() == nil
}

// fullKey repairs the key go-toml reports for an error at row: for a key
// inside an inline table, or a key written twice, it omits the enclosing
// tables. The key index knows the full path of every key on that line.
func (k keyIndex) fullKey(row int, key []string) string {
	short := strings.Join(key, ".")
	if len(key) == 0 || k == nil {
		return short
	}
	last := key[len(key)-1]
	var found []string
	for path, line := range k {
		if line == row && (path == last || strings.HasSuffix(path, "."+last)) &&
			strings.HasPrefix(path, strings.Join(key[:len(key)-1], ".")) {
			found = append(found, path)
		}
	}
	if len(found) == 1 {
		return found[0]
	}
	return short
}

// keyIndex maps dotted key paths (array-table entries as name[i]) to the
// line where each key is written, so semantic errors can name lines.
type keyIndex map[string]int

func indexKeys(data []byte) keyIndex {
	idx := keyIndex{}
	var p unstable.Parser
	p.Reset(data)
	line := func(n *unstable.Node) int { return p.Shape(n.Raw).Start.Line }
	keyOf := func(it unstable.Iterator) (parts []string, first *unstable.Node) {
		for it.Next() {
			if first == nil {
				first = it.Node()
			}
			parts = append(parts, string(it.Node().Data))
		}
		return parts, first
	}
	counts := map[string]int{}
	var prefix string
	var walk func(prefix string, kv *unstable.Node)
	walk = func(prefix string, kv *unstable.Node) {
		parts, first := keyOf(kv.Key())
		path := join(prefix, strings.Join(parts, "."))
		if first != nil {
			idx[path] = line(first)
		}
		val := kv.Value()
		switch val.Kind {
		case unstable.InlineTable:
			it := val.Children()
			for it.Next() {
				if it.Node().Kind == unstable.KeyValue {
					walk(path, it.Node())
				}
			}
		case unstable.Array:
			it := val.Children()
			for i := 0; it.Next(); i++ {
				el := it.Node()
				idx[fmt.Sprintf("%s[%d]", path, i)] = line(el)
				if el.Kind == unstable.InlineTable {
					sub := el.Children()
					for sub.Next() {
						if sub.Node().Kind == unstable.KeyValue {
							walk(fmt.Sprintf("%s[%d]", path, i), sub.Node())
						}
					}
				}
			}
		}
	}
	for p.NextExpression() {
		e := p.Expression()
		switch e.Kind {
		case unstable.Table:
			parts, first := keyOf(e.Key())
			prefix = strings.Join(parts, ".")
			if first != nil {
				idx[prefix] = line(first)
			}
		case unstable.ArrayTable:
			parts, first := keyOf(e.Key())
			name := strings.Join(parts, ".")
			prefix = fmt.Sprintf("%s[%d]", name, counts[name])
			counts[name]++
			if first != nil {
				idx[prefix] = line(first)
				if _, ok := idx[name]; !ok {
					idx[name] = line(first)
				}
			}
		case unstable.KeyValue:
			walk(prefix, e)
		}
	}
	return idx
}

func join(prefix, key string) string {
	if prefix == "" {
		return key
	}
	return prefix + "." + key
}

// lineOf returns the line of path, or of its nearest written ancestor.
func (k keyIndex) lineOf(path string) int {
	for path != "" {
		if l, ok := k[path]; ok {
			return l
		}
		i := strings.LastIndexAny(path, ".[")
		if i < 0 {
			break
		}
		path = path[:i]
	}
	return 0
}
