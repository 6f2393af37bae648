# JCM ID-003 acceptor driver (drivers/id003): short fuzz runs for CI.
ID003_FUZZ := FuzzDecode FuzzDecoder FuzzParseStatus FuzzParseCurrencyTable FuzzParseExtension
ID003_FUZZTIME ?= 10s

.PHONY: fuzz-id003
fuzz-id003:
	@set -e; for f in $(ID003_FUZZ); do \
		scripts/fuzz.sh ./drivers/id003 $$f $(ID003_FUZZTIME); \
	done

TEST_EXTRA += fuzz-id003
