// Package internal holds what the rooms share that belongs to none of them:
// the repository's own development tooling (hosttools: the external programs
// the tests run and the Debian packages that ship them). Nothing here is
// linked into a cabinet or central binary.
package internal
