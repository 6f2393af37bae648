package i18n

import (
	"github.com/polaris-vlt/polaris/engine"
	"github.com/polaris-vlt/polaris/firmware/view"
	"github.com/polaris-vlt/polaris/money"
)

// AppendLine appends a menu line in lang: its key's text with "{0}".."{9}"
// replaced by the arguments, money in cur, counts grouped, keys translated.
// A tab stays in the text: the renderer starts the second column there.
func AppendLine(dst []byte, lang string, cur money.Currency, l view.MenuLine) []byte {
	s := T(lang, l.Key)
	if s == l.Key && len(l.Args) > 0 {
		// A missing entry shows its key and its arguments, not a blank.
		return append(dst, l.String()...)
	}
	for i := 0; i < len(s); i++ {
		if s[i] == '{' && i+2 < len(s) && s[i+2] == '}' && s[i+1] >= '0' && s[i+1] <= '9' {
			if n := int(s[i+1] - '0'); n < len(l.Args) {
				dst = appendArg(dst, lang, cur, l.Args[n])
			}
			i += 2
			continue
		}
		dst = append(dst, s[i])
	}
	return dst
}

// Line is AppendLine as a string.
func Line(lang string, cur money.Currency, l view.MenuLine) string {
	return string(AppendLine(nil, lang, cur, l))
}

func appendArg(dst []byte, lang string, cur money.Currency, a view.Arg) []byte {
	switch a.Kind {
	case view.ArgText:
		return append(dst, a.S...)
	case view.ArgKey:
		return append(dst, T(lang, a.S)...)
	case view.ArgMoney:
		return AppendMoney(dst, lang, cur, engine.Money(a.N))
	case view.ArgTime:
		return a.T.AppendFormat(dst, "2006-01-02 15:04:05")
	case view.ArgPercent:
		n := a.N
		if n < 0 {
			dst, n = append(dst, '-'), -n
		}
		return append(AppendNumber(dst, lang, 4, n), "\u00a0%"...)
	case view.ArgMoneys:
		for i, v := range a.L {
			if i > 0 {
				dst = append(dst, ", "...)
			}
			dst = AppendMoney(dst, lang, cur, engine.Money(v))
		}
		return dst
	case view.ArgMillis:
		if a.N < 0 {
			return append(dst, '-')
		}
		return append(AppendNumber(dst, lang, 0, a.N), "\u00a0ms"...)
	case view.ArgMicros:
		n := a.N
		if n < 0 {
			dst, n = append(dst, '-'), -n
		}
		return append(AppendNumber(dst, lang, 3, n), "\u00a0ms"...)
	default: // ArgCount
		n := a.N
		if n < 0 {
			dst, n = append(dst, '-'), -n
		}
		return AppendNumber(dst, lang, 0, n)
	}
}

// LineKeys lists the catalogue keys a line uses: its own and its key
// arguments'.
func LineKeys(l view.MenuLine) []string {
	ks := []string{l.Key}
	for _, a := range l.Args {
		if a.Kind == view.ArgKey {
			ks = append(ks, a.S)
		}
	}
	return ks
}
