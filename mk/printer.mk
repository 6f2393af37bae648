# Ticket printers (drivers/printer): TCL and ESC/POS drivers, their
# emulators, documents and rendering. See drivers/printer/README.md.

PRINTER_PKGS := ./drivers/printer/...
# Every decoder's fuzz target, as package:Target. CI runs each for
# FUZZ_PRINTER_TIME; run longer by hand: make fuzz-printer FUZZ_PRINTER_TIME=5m
PRINTER_FUZZ := \
	./drivers/printer/tcl:FuzzParseStatus \
	./drivers/printer/tcl:FuzzSplitter \
	./drivers/printer/tcl:FuzzEscape \
	./drivers/printer/escpos:FuzzParseStatus \
	./drivers/printer/escpos:FuzzParsePaperSensor \
	./drivers/printer/escpos:FuzzReplyScanner \
	./drivers/printer/document:FuzzWords \
	./drivers/printer/tclemu:FuzzEmulatorInput \
	./drivers/printer/tclemu:FuzzOneMessagePerRead \
	./drivers/printer/escposemu:FuzzEmulatorInput
FUZZ_PRINTER_TIME ?= 10s

.PHONY: test-printer fuzz-printer printer-png
test-printer:
	$(GO) test -count=1 $(PRINTER_PKGS)

fuzz-printer:
	@set -e; for t in $(PRINTER_FUZZ); do \
		pkg=$${t%%:*}; fn=$${t##*:}; \
		echo "fuzz $$pkg $$fn ($(FUZZ_PRINTER_TIME))"; \
		scripts/fuzz.sh $$pkg $$fn $(FUZZ_PRINTER_TIME); \
	done

# Writes the emulators' renderings of vouchers, a jackpot form and an audit ticket to
# PRINTER_PNG_DIR (default bin/printer-png) for a look.
PRINTER_PNG_DIR ?= $(CURDIR)/$(BIN)/printer-png
printer-png:
	@mkdir -p $(PRINTER_PNG_DIR)
	PRINTER_PNG_DIR=$(PRINTER_PNG_DIR) $(GO) test -count=1 -run 'Scans|HandpayAndJackpotForm|AuditTicket' ./drivers/printer/tcl ./drivers/printer/escpos
	@ls $(PRINTER_PNG_DIR)

# Receipts from three public ESC/POS encoders (npm, versions pinned in
# drivers/printer/escposemu/testdata/npm/package-lock.json) run through the
# ESC/POS emulator; their barcodes and QR codes must decode with zbarimg.
PRINTER_NPM_DIR := drivers/printer/escposemu/testdata/npm
PRINTER_NPM_OUT ?= $(CURDIR)/$(BIN)/npm-receipts
.PHONY: printer-npm-receipts
printer-npm-receipts:
	@scripts/install-node.sh
	cd $(PRINTER_NPM_DIR) && npm ci --no-audit --no-fund --loglevel=error
	node $(PRINTER_NPM_DIR)/gen.mjs $(PRINTER_NPM_OUT)
	ESCPOS_NPM_RECEIPTS=$(PRINTER_NPM_OUT) PRINTER_PNG_DIR=$(PRINTER_NPM_OUT) $(GO) test -count=1 -run TestNPMEncoderReceipts ./drivers/printer/escposemu

TEST_EXTRA += fuzz-printer printer-npm-receipts
