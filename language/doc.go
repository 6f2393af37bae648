// Package language names the languages Polaris speaks, once: the display's
// catalogues, the printer's documents, the back office and the market
// profiles each cover exactly these. It is a leaf (standard library only),
// so the drivers, the cabinet, the display and the central system all
// import the same list. Adding a language starts here; the tests of each
// of those then name every text the new language still lacks.
package language
