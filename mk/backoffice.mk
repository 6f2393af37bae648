# The back office console (central/backoffice): its tests, headless Chromium
# included (also part of `go test ./...`), and the committed screenshots.
.PHONY: backoffice-test backoffice-screenshots
backoffice-test:
	POLARIS_TOOLS_REQUIRED=1 $(GO) test -count=1 ./central/backoffice/

backoffice-screenshots:
	cd central/backoffice && POLARIS_TOOLS_REQUIRED=1 POLARIS_BACKOFFICE_SCREENSHOTS=screenshots $(GO) test -count=1 -run Chromium .
