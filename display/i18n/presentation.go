package i18n

// FreeSpinsKey is the catalogue key of "n free spins" for n, in the
// languages' plurals (en and de: one, other; cs: one, 2–4, other).
func FreeSpinsKey(lang string, n int) string {
	switch {
	case n == 1:
		return "free.intro.one"
	case lang == "cs" && n >= 2 && n <= 4:
		return "free.intro.few"
	}
	return "free.intro.many"
}
