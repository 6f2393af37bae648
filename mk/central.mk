# central: protobuf generation for the cabinet <-> central protocol.
# The generated Go code is committed; tests never need protoc.
PROTOC_GEN_GO_VERSION      := v1.36.12
PROTOC_GEN_GO_GRPC_VERSION := v1.6.2
TOOLS_BIN := $(CURDIR)/bin/tools

.PHONY: proto proto-tools central-bench
proto-tools:
	@command -v protoc >/dev/null || { apt-get install -y protobuf-compiler || { apt-get update && apt-get install -y protobuf-compiler; }; }
	@mkdir -p $(TOOLS_BIN)
	@test -x $(TOOLS_BIN)/protoc-gen-go || GOBIN=$(TOOLS_BIN) $(GO) install google.golang.org/protobuf/cmd/protoc-gen-go@$(PROTOC_GEN_GO_VERSION)
	@test -x $(TOOLS_BIN)/protoc-gen-go-grpc || GOBIN=$(TOOLS_BIN) $(GO) install google.golang.org/grpc/cmd/protoc-gen-go-grpc@$(PROTOC_GEN_GO_GRPC_VERSION)

proto: proto-tools
	PATH=$(TOOLS_BIN):$$PATH protoc -I central/proto \
	  --go_out=central/proto --go_opt=paths=source_relative \
	  --go-grpc_out=central/proto --go-grpc_opt=paths=source_relative \
	  central/proto/central.proto

central-bench:
	$(GO) test -run '^$$' -bench RequestOutcome -benchmem ./central/server/
