# JCM ID-003 acceptor driver (drivers/id003): short fuzz runs for CI.
ID003_FUZZ := FuzzDecode FuzzDecoder FuzzParseStatus FuzzParseCurrencyTable
ID003_FUZZTIME ?= 10s

.PHONY: fuzz-id003
fuzz-id003:
	@set -e; for f in $(ID003_FUZZ); do \
		$(GO) test -run='^$$' -fuzz="^$$f\$$" -fuzztime=$(ID003_FUZZTIME) ./drivers/id003/; \
	done

TEST_EXTRA += fuzz-id003
