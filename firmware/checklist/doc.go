// Package checklist keeps the lab's checklist true: firmware/README.md maps
// each of the 38 acceptance checks of standards.md §2 to the tests that show
// it, and TestChecklistIsTrue fails when a check has no row, a row names a
// test or scenario file that no longer exists, or a row without a test does
// not say that the check is open. It holds no code besides that test.
package checklist
