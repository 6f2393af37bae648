// Package escpos drives generic thermal printers in ESC/POS
// (reference/protocols.md §3.6): a pure codec (commands, Interleaved 2 of 5
// with GS k, cuts, DLE EOT 1–4 real-time status and the GS r paper-sensor
// reply decoded to typed state), and a driver that prints Polaris's
// documents from their layout and confirms each print.
//
// ESC/POS has no "validation number printed" flag. The driver follows the
// job with GS r 1, which the printer answers only after everything before
// it — the barcode, the text and the cut — has been processed, and then
// reads DLE EOT 1–4: only a clean answer makes the voucher issued
// (ValidationPrinted, then PrintComplete). A fault anywhere in the job is
// PrintFailed with Issued=false, even if the barcode was already on paper:
// the firmware must then void that validation number.
package escpos
