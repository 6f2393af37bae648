package language

import "slices"

// The languages, by their ISO 639-1 codes.
const (
	Czech   = "cs"
	German  = "de"
	English = "en"
)

// Fallback is the language a text missing in another is shown in.
const Fallback = English

// all is the one list; All hands out copies so no caller can change it.
var all = []string{Czech, German, English}

// All lists the languages in a fixed order (the screenshots' order).
func All() []string { return slices.Clone(all) }

// Known reports whether code is one of the languages.
func Known(code string) bool { return slices.Contains(all, code) }
