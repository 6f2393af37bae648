# The player card reader (drivers/cardreader, cardauth).
#   make test-cardreader   its tests: real pcscd + vsmartcard-vpcd with the card emulator,
#                          and Debian's vicc (~20 s)
#   make fuzz-cardreader   each decoder's fuzz target for CARDREADER_FUZZTIME (in make test)
CARDREADER_FUZZTIME ?= 10s

.PHONY: test-cardreader fuzz-cardreader
test-cardreader:
	$(GO) test -count=1 ./drivers/cardreader/... ./cardauth

fuzz-cardreader:
	@set -e; \
	scripts/fuzz.sh ./drivers/cardreader FuzzCheckAnswers $(CARDREADER_FUZZTIME); \
	scripts/fuzz.sh ./drivers/cardreader/cardemu FuzzApplet $(CARDREADER_FUZZTIME); \
	scripts/fuzz.sh ./drivers/cardreader/pcsc FuzzParseStates $(CARDREADER_FUZZTIME)

TEST_EXTRA += fuzz-cardreader
