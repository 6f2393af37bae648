// Package internal holds what the rooms share that belongs to none of them:
// the tests' tooling — hosttools (the external programs the tests run and
// the Debian packages that ship them, from .ci/tools), poll (the one
// poll-until helper) and pgcluster (a throwaway PostgreSQL for the
// central store's tests and load runs). Nothing here is linked into a
// cabinet or central binary.
package internal
