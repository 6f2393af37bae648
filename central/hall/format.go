package hall

import "strconv"

// nbsp keeps an amount and its groups on one line.
const nbsp = "\u00a0"

// group writes n ≥ 0 with a no-break space every three digits.
func group(n int64) string {
	s := strconv.FormatInt(n, 10)
	out := make([]byte, 0, len(s)+len(s)/3*len(nbsp))
	for i := range len(s) {
		if i > 0 && (len(s)-i)%3 == 0 {
			out = append(out, nbsp...)
		}
		out = append(out, s[i])
	}
	return string(out)
}

func sign(n int64) (string, int64) {
	if n < 0 {
		return "−", -n
	}
	return "", n
}

// CZK formats whole crowns: "123 456 Kč".
func CZK(crowns int64) string {
	s, n := sign(crowns)
	return s + group(n) + nbsp + "Kč"
}

// EUR formats euro cents: "4 938,24 €".
func EUR(cents int64) string {
	s, n := sign(cents)
	c := n % 100
	return s + group(n/100) + "," + string(rune('0'+c/10)) + string(rune('0'+c%10)) + nbsp + "€"
}

// CZKToEURCents converts whole crowns at a rate in hundredths of a crown
// per euro (2500 = 25.00), rounding half away from zero.
func CZKToEURCents(crowns, czkPerEURCenti int64) int64 {
	if czkPerEURCenti <= 0 {
		return 0
	}
	s, n := sign(crowns)
	// cents = crowns × 100 × 100 / rate
	q := (n*20000/czkPerEURCenti + 1) / 2
	if s != "" {
		return -q
	}
	return q
}
