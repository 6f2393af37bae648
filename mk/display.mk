# The cabinet display (display/): the desktop cabinet, screenshots, the
# display tests under Xvfb, benchmarks.
#   make run [MARKET=demo|cz|at]   open the devkit cabinet in a window (polaris-devkit)
#   make screenshots               one PNG per scene and language in screenshots/
MARKET ?= demo
DATA   ?= data
# ebiten's cgo build (GLFW on X11) and the GL it loads at run time.
DISPLAY_DEBS := gcc libc6-dev pkg-config libgl1-mesa-dev libgl1-mesa-dri libx11-dev \
	libxcursor-dev libxi-dev libxinerama-dev libxrandr-dev libxxf86vm-dev libasound2-dev
# display/sound's test: a PulseAudio server with a null sink, ALSA's pulse plugin.
SOUND_DEBS := pulseaudio pulseaudio-utils libasound2-plugins alsa-utils
# XVFB runs a command on a virtual X server of its own (scripts/xvfb, a
# prerequisite of the targets using it): unlike xvfb-run's, the server
# ends with the command on SIGTERM or a kill too.
XVFB := $(BIN)/xvfb -screen 1920x1200x24 --
$(BIN)/xvfb: scripts/xvfb/main.go $(wildcard childproc/*.go)
	@mkdir -p $(BIN)
	$(GO) build -o $@ ./scripts/xvfb

.PHONY: run screenshots display-test bench-display art-sheet
# The devkit's player card reader (F2-F4, K): its own pcscd with the vpcd virtual reader.
CARD_DEBS := pcscd vsmartcard-vpcd
run:
	@scripts/install-packages.sh $(DISPLAY_DEBS) $(CARD_DEBS)
	@mkdir -p $(BIN) $(DATA)/$(MARKET)
	$(GO) build -tags display -o $(BIN)/polaris-devkit ./cmd/polaris-devkit
	@test -n "$$DISPLAY" || { echo "make run: no X display (DISPLAY is empty); on a headless machine use: $(BIN)/polaris-devkit headless -market $(MARKET)" >&2; exit 1; }
	$(BIN)/polaris-devkit run -market $(MARKET) -data $(DATA)/$(MARKET)

screenshots:
	$(GO) run ./display/screenshots -o screenshots

art-sheet:
	@mkdir -p screenshots
	$(GO) run ./display/art/sheet -o screenshots/symbols.png

# display-test runs the ebiten tests (build tag "display") inside a virtual
# X server; untagged, `go test ./...` builds and tests only the pure-Go
# renderer. POLARIS_DISPLAY_TEST=1 makes a missing display a failure.
display-test: $(BIN)/xvfb
	@scripts/install-packages.sh xvfb xauth xdotool $(DISPLAY_DEBS) $(SOUND_DEBS) $(CARD_DEBS)
	POLARIS_DISPLAY_TEST=1 $(XVFB) $(GO) test -tags display -count=1 ./display/ ./display/sound/
	POLARIS_DISPLAY_TEST=1 $(XVFB) $(GO) test -tags display -count=1 -run TestWindowChildrenEndWithDevkit ./cmd/polaris-devkit/

# bench-display: the software renderer; the pacer (one check, and a second
# of its polling); whole window frames as ebiten runs them every frame (50
# per run: allocs/op stay exact); then the window on demand as `polaris run`
# has it, one op a second (allocs/op per second). The window at 1920x1080
# (a cabinet, 1:1) and at half size (the devkit window).
bench-display: $(BIN)/xvfb
	$(GO) test -run '^$$' -bench . -benchmem -count 5 ./display/render/
	$(GO) test -run '^$$' -bench Pacer -benchmem -count 5 ./display/
	$(XVFB) $(GO) test -tags display -run '^$$' -bench Window -benchmem -benchtime 50x -count 5 ./display/
	POLARIS_BENCH_SCALE=50 $(XVFB) $(GO) test -tags display -run '^$$' -bench Window -benchmem -benchtime 50x -count 5 ./display/
	$(XVFB) $(GO) test -tags display -run '^$$' -bench OnDemand -benchmem -benchtime 3x -count 5 ./display/
	POLARIS_BENCH_SCALE=50 $(XVFB) $(GO) test -tags display -run '^$$' -bench OnDemand -benchmem -benchtime 3x -count 5 ./display/

TEST_EXTRA += display-test

# run-check: `make run` as a newcomer runs it, on a virtual X server, with
# the keyboard driven through XTEST: a note credited and a game played
# (scripts/run-check.sh). .ci/run runs it after make test.
.PHONY: run-check
run-check: $(BIN)/xvfb
	@scripts/install-packages.sh xvfb xauth xdotool
	$(XVFB) scripts/run-check.sh
