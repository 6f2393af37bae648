# Raspberry Pi deployment (issue 8): arm64 cross-build, signed software
# manifest, emulated boot test under qemu, Debian packages. See systemd/README.md.
PI_ARCHES      ?= arm64 amd64
PI_VERSION     ?= 0.1.0+git$(shell git rev-parse --short HEAD 2>/dev/null || echo 0)
PI_KEY         ?= $(BIN)/keys/polaris-dev.key
PI_PKG         := github.com/polaris-vlt/polaris
NFPM_VERSION   ?= v2.45.2
NFPM           := $(CURDIR)/$(BIN)/tools/nfpm
# The binaries that need cgo (ebiten's GLFW), built with the display linked in
# (-tags display, see mk/display.mk): the cabinet and the devkit cabinet; every
# other cmd is built with CGO_ENABLED=0. cmd/internal holds no command.
PI_CGO_CMDS    := polaris polaris-devkit
PI_CGO_TAGS    := display
PI_CMDS        := $(filter-out internal,$(notdir $(wildcard cmd/*)))
PI_SYSROOT_PC  := /usr/lib/aarch64-linux-gnu/pkgconfig:/usr/share/pkgconfig
QEMU_ROOT      ?= /
# Smoke test: the devkit cabinet (polaris-devkit), one scripted round.
PI_SMOKE_SCRIPT ?= systemd/testdata/one-round.scn

.PHONY: pi-deps pi-key build-arm64 build-amd64-pkg smoke-arm64 deb deb-test systemd-verify pi-test nfpm

pi-deps:
	@systemd/tools/arm64-deps.sh

pi-key:
	@$(GO) run ./systemd/tools/sign -key $(PI_KEY) -keygen >/dev/null

# build-<arch> leaves the binaries in bin/<arch>/, with the signing key's
# public half linked into firmware/verify.
build-arm64: pi-deps pi-key
	@$(MAKE) --no-print-directory pi-build PI_ARCH=arm64 \
	  PI_CC=aarch64-linux-gnu-gcc PI_PKGCONF=$(PI_SYSROOT_PC)

build-amd64-pkg: pi-key
	@$(MAKE) --no-print-directory pi-build PI_ARCH=amd64 PI_CC=gcc PI_PKGCONF=

.PHONY: pi-build
pi-build:
	@mkdir -p $(BIN)/$(PI_ARCH)
	@pub=$$(cat $(PI_KEY).pub); ld="-s -w -X $(PI_PKG)/firmware/verify.BuiltinPublicKey=$$pub"; \
	for c in $(PI_CMDS); do \
	  if echo " $(PI_CGO_CMDS) " | grep -q " $$c "; then \
	    echo "  cgo   $(PI_ARCH) $$c"; \
	    CGO_ENABLED=1 GOOS=linux GOARCH=$(PI_ARCH) CC=$(PI_CC) \
	      $(if $(PI_PKGCONF),PKG_CONFIG_LIBDIR=$(PI_PKGCONF)) \
	      $(GO) build -trimpath -tags $(PI_CGO_TAGS) -ldflags "$$ld" -o $(BIN)/$(PI_ARCH)/$$c ./cmd/$$c || exit 1; \
	  else \
	    echo "  go    $(PI_ARCH) $$c"; \
	    CGO_ENABLED=0 GOOS=linux GOARCH=$(PI_ARCH) \
	      $(GO) build -trimpath -ldflags "$$ld" -o $(BIN)/$(PI_ARCH)/$$c ./cmd/$$c || exit 1; \
	  fi; \
	done
	@file $(BIN)/$(PI_ARCH)/polaris

# pi-stage lays out the installed tree (bin/pkg/<arch>/root) and signs its
# manifest: binaries, math models, profiles.
.PHONY: pi-stage
pi-stage:
	@r=$(BIN)/pkg/$(PI_ARCH)/root; rm -rf $$r; \
	install -d $$r/usr/share/doc/polaris $$r/usr/bin $$r/usr/share/polaris/models $$r/etc/polaris/board $$r/etc/polaris/market $$r/usr/share/polaris/overlays; \
	install -m 0755 $(addprefix $(BIN)/$(PI_ARCH)/,$(PI_CMDS)) $$r/usr/bin/; \
	install -m 0644 engine/*/model/*.json $$r/usr/share/polaris/models/; \
	install -m 0644 board/profiles/*.toml $$r/etc/polaris/board/; \
	install -m 0644 market/profiles/*.toml $$r/etc/polaris/market/; \
	scripts/need-tools.sh dtc && dtc -q -@ -I dts -O dtb -o $$r/usr/share/polaris/overlays/polaris-lamps.dtbo board/overlays/polaris-lamps-overlay.dts || exit 1; \
	$(GO) run ./systemd/tools/sign -key $(PI_KEY) -root $$r -version $(PI_VERSION); \
	printf 'polaris (%s) unstable; urgency=medium\n\n  * Build %s.\n\n -- Polaris firmware team <firmware@polaris-vlt.example>  %s\n' \
	  "$(PI_VERSION)" "$(PI_VERSION)" "$$(date -R -d @$${SOURCE_DATE_EPOCH:-$$(git log -1 --format=%ct 2>/dev/null || date +%s)})" \
	  | gzip -9n > $$r/usr/share/doc/polaris/changelog.gz

# smoke-arm64: the arm64 cabinet under qemu-aarch64-static, against Xvfb
# (the binary links ebiten, which needs an X display even headless):
# verify the signed manifest, then one scripted round on the devkit board
# (polaris-devkit: the cabinet binary has no emulators and no central system).
smoke-arm64: build-arm64
	@$(MAKE) --no-print-directory pi-stage PI_ARCH=arm64
	@PI_ROOT=$(BIN)/pkg/arm64/root QEMU_ROOT=$(QEMU_ROOT) SCRIPT=$(PI_SMOKE_SCRIPT) systemd/tools/smoke.sh

nfpm:
	@test -x $(NFPM) || GOBIN=$(CURDIR)/$(BIN)/tools $(GO) install github.com/goreleaser/nfpm/v2/cmd/nfpm@$(NFPM_VERSION)

# deb: bin/deb/polaris_<version>_<arch>.deb for arm64 and amd64.
deb: build-arm64 build-amd64-pkg nfpm
	@mkdir -p $(BIN)/deb && rm -f $(BIN)/deb/polaris_*.deb
	@for a in $(PI_ARCHES); do \
	  $(MAKE) --no-print-directory pi-stage PI_ARCH=$$a || exit 1; \
	  sed -e "s|\$${PI_ROOT}|$(CURDIR)/$(BIN)/pkg/$$a/root|g; s|\$${PI_ARCH}|$$a|g; s|\$${PI_VERSION}|$(PI_VERSION)|g" \
	    systemd/nfpm.yaml > $(BIN)/pkg/$$a/nfpm.yaml; \
	  $(NFPM) package -f $(BIN)/pkg/$$a/nfpm.yaml -p deb -t $(BIN)/deb/ || exit 1; \
	done
	@ls -l $(BIN)/deb/

# deb-test: lintian (no errors), install into a scratch root, verify there,
# remove and purge cleanly; systemd-analyze verify on every unit.
deb-test: deb systemd-verify
	@systemd/tools/deb-test.sh $(BIN)/deb

systemd-verify:
	@systemd/tools/units-verify.sh

# systemd-check: every unit through systemd-analyze verify, the udev rules
# through udevadm; seconds, so it runs in `make test`.
.PHONY: systemd-check
systemd-check: systemd-verify
	@systemd/tools/udev-check.sh

TEST_EXTRA += systemd-check

# systemd-security: `systemd-analyze security` exposure of every unit (offline).
.PHONY: systemd-security
systemd-security:
	@SECURITY=1 systemd/tools/units-verify.sh

pi-test: smoke-arm64 deb-test
