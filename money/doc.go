// Package money is the unit every amount is counted in: a Currency (ISO
// code, minor digits, symbol) and its plain formatting. Amounts are
// integers in the currency's minor unit everywhere in Polaris. It is a
// leaf (standard library only), so the market profile, the view snapshot,
// the printer's documents and the tools all name the same type; formatting
// for a player in a language is the display's (display/i18n) and the
// printer's (drivers/printer/document).
package money
