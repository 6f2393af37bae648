// Package document describes, once, the documents Polaris prints — the
// cash-out voucher, the handpay receipt and the Magic Stars jackpot payout
// form (GAME_RULES.md MS-18) — as named fields (for printer-resident TCL
// templates, which take fields positionally) and as a device-independent
// layout of lines, barcodes and signature fields (for printers that are
// driven line by line, such as ESC/POS). It also spells amounts in words in
// Czech, German and English. It knows nothing of serial lines or devices.
package document
