# Board profiles and GPIO (board/, drivers/gpio/): short fuzz runs for CI,
# the lamp-expander overlay, benchmarks.
BOARD_FUZZTIME ?= 10s

.PHONY: fuzz-board board-overlay bench-gpio
fuzz-board:
	scripts/fuzz.sh ./board FuzzParse $(BOARD_FUZZTIME)
	scripts/fuzz.sh ./drivers/gpio FuzzDebouncer $(BOARD_FUZZTIME)

# board-overlay compiles the rpi-cabinet lamp expander overlay (needs dtc,
# Debian's device-tree-compiler) into bin/polaris-lamps.dtbo.
board-overlay:
	@mkdir -p $(BIN)
	dtc -@ -I dts -O dtb -o $(BIN)/polaris-lamps.dtbo board/overlays/polaris-lamps-overlay.dts

bench-gpio:
	$(GO) test -run='^$$' -bench=. -benchmem ./drivers/gpio/

TEST_EXTRA += fuzz-board
