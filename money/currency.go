package money

import "fmt"

// Currency of a market: amounts are integers in its minor unit.
type Currency struct {
	Code       string `toml:"code"`        // ISO 4217, e.g. "EUR"
	MinorUnits int    `toml:"minor_units"` // decimal places: 2 for EUR, 0 for CZK as played
	Symbol     string `toml:"symbol"`      // "€", "Kč"
}

// Unit is the number of minor units in one major unit (10^MinorUnits).
func (c Currency) Unit() int64 {
	u := int64(1)
	for i := 0; i < c.MinorUnits; i++ {
		u *= 10
	}
	return u
}

// Split divides v (minor units, ≥ 0) into major and minor units.
func (c Currency) Split(v int64) (major, minor int64) {
	u := c.Unit()
	return v / u, v % u
}

// Format writes v (minor units) as the technician's pages, the logs and the
// tools show it: "2500 CZK", "-12.50 EUR".
func (c Currency) Format(v int64) string {
	sign := ""
	if v < 0 {
		sign, v = "-", -v
	}
	if c.MinorUnits <= 0 {
		return fmt.Sprintf("%s%d %s", sign, v, c.Code)
	}
	major, minor := c.Split(v)
	return fmt.Sprintf("%s%d.%0*d %s", sign, major, c.MinorUnits, minor, c.Code)
}
